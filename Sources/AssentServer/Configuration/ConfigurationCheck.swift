import AssentHTTP
import AssentServerCore
import AssentStorage
import AssentAttestation
import Foundation

/// `assentd check-config`: everything `assentd` would check at start, without starting or changing anything — the
/// flags (already parsed into the configuration), the listen addresses, the master key, the database and its schema,
/// the TLS files and the web root. An operator runs it before a restart (systemd's `ExecStartPre=`, a deploy script).
package struct ConfigurationCheck: Sendable {
    /// One thing checked.
    package struct Finding: Sendable, Equatable {
        /// `ok`, `note` (fine, but worth knowing) or `error` (assentd would not start, or would start wrongly).
        package enum Level: String, Sendable { case ok, note, error }

        /// How it went.
        package var level: Level
        /// The part checked: `listen`, `metrics listen`, `admin listen`, `master key`, `database`, `tls`, `web root`,
        /// `attestation root`, `attestation status list`.
        package var subject: String
        /// What was found.
        package var message: String
    }

    private let configuration: ServerConfiguration

    /// A check of this configuration.
    package init(configuration: ServerConfiguration) {
        self.configuration = configuration
    }

    /// Runs every check, in order; never throws (a failure is a finding).
    package func run() -> [Finding] {
        listeners() + [masterKey(), database(), tls(), webRoot()].compactMap { $0 } + attestationRoots()
            + [attestationStatusList()]
    }

    /// The trust anchors of device attestations, one finding each: the pinned Apple and Google roots and the
    /// operator's `--attestation-roots`, by subject and SHA-256 (the file itself was read when the flags were parsed).
    private func attestationRoots() -> [Finding] {
        let anchors: AttestationTrustAnchors
        do {
            anchors = try ServerConfiguration.attestationRoots(file: configuration.attestationRootsFile)
        } catch {
            return [Finding(level: .error, subject: "attestation root", message: "--attestation-roots: \(error)")]
        }
        func finding(_ root: AttestationRoot, _ kind: String) -> Finding {
            Finding(level: .ok, subject: "attestation root", message: "\(kind): \(root.subject) sha256 \(root.sha256)")
        }
        return anchors.appleRoots.map { finding($0, "pinned Apple (App Attest)") }
            + anchors.googleRoots.map { finding($0, "pinned Google (Android)") }
            + anchors.addedRoots.map { finding($0, "added by --attestation-roots (both formats)") }
    }

    /// Where Google's Android attestation status list comes from; a file is read and parsed now (the server reads
    /// it only once a tenant uses Android attestation).
    private func attestationStatusList() -> Finding {
        let subject = "attestation status list"
        if let url = configuration.androidAttestationStatusURL {
            return Finding(level: .ok, subject: subject, message: """
                read from \(url) every \(configuration.androidAttestationStatusRefreshSeconds) s once a tenant uses \
                Android attestation (not fetched by check-config)
                """)
        }
        guard let file = configuration.androidAttestationStatusFile else {
            return Finding(level: .note, subject: subject, message: """
                none (--android-attestation-status-url or --android-attestation-status-file): Android chains are \
                verified without revocation, verdicts say revocationChecked false
                """)
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            return Finding(level: .error, subject: subject, message: "cannot read \(file) (--android-attestation-status-file)")
        }
        do throws(AttestationError) {
            let list = try AndroidRevocationStatusList(json: Array(data))
            return Finding(level: .ok, subject: subject, message: "\(file) holds a status list of \(list.entries.count) entries")
        } catch {
            return Finding(level: .error, subject: subject, message: "\(file) is not a status list: \(error.reason)")
        }
    }

    /// Each address assentd would listen on (`--listen`, `--metrics-listen`, `--admin-listen`), bound for a moment as
    /// the server binds it: a port another process holds is an error here, not first at start (issue 22 §3.8).
    private func listeners() -> [Finding] {
        var addresses = [("listen", "--listen", configuration.host, configuration.port)]
        if let host = configuration.metricsHost, let port = configuration.metricsPort {
            addresses.append(("metrics listen", "--metrics-listen", host, port))
        }
        if let host = configuration.adminHost, let port = configuration.adminPort {
            addresses.append(("admin listen", "--admin-listen", host, port))
        }
        return addresses.map { subject, flag, host, port in
            let shown = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            do {
                try HTTPServer.checkListen(host: host, port: port)
                return Finding(level: .ok, subject: subject, message: port == 0
                    ? "\(host) can be listened on (port 0: a free port is picked at start)"
                    : "\(shown) is free to listen on")
            } catch let error as HTTPServerError where error.code == .addressInUse {
                return Finding(level: .error, subject: subject, message: """
                    \(shown) is already in use by another process (a running assentd?): stop it or choose another \(flag)
                    """)
            } catch let error as HTTPServerError {
                return Finding(level: .error, subject: subject, message: "\(error.reason) (\(flag))")
            } catch {
                return Finding(level: .error, subject: subject, message: "\(ErrorText.describe(error)) (\(flag))")
            }
        }
    }

    private func masterKey() -> Finding {
        if configuration.masterKey != nil {
            do {
                _ = try MasterKey.load(base64: configuration.masterKey, file: "")
                return Finding(level: .ok, subject: "master key", message: "ASSENT_MASTER_KEY holds a 32-byte key")
            } catch {
                return Finding(level: .error, subject: "master key", message: ErrorText.describe(error))
            }
        }
        let file = configuration.masterKeyFile ?? configuration.databaseLocation.defaultMasterKeyFile ?? "master.key"
        guard FileManager.default.fileExists(atPath: file) else {
            if configuration.databaseLocation.isShared {
                return Finding(level: .error, subject: "master key", message: """
                    \(file) does not exist: with PostgreSQL every instance must use the same key, so copy it from \
                    where the first instance made it (or give ASSENT_MASTER_KEY)
                    """)
            }
            return Finding(level: .note, subject: "master key", message: "\(file) does not exist yet; assentd creates it (0600) at first start")
        }
        var warnings: [String] = []
        do {
            _ = try MasterKey.load(base64: nil, file: file) { warnings.append($0) }
        } catch {
            return Finding(level: .error, subject: "master key", message: ErrorText.describe(error))
        }
        if let warning = warnings.first { return Finding(level: .note, subject: "master key", message: warning) }
        return Finding(level: .ok, subject: "master key", message: "\(file) holds a 32-byte key")
    }

    private func database() -> Finding {
        let location = configuration.databaseLocation
        let status: DatabaseLocation.SchemaStatus
        do {
            status = try location.schemaStatus()
        } catch {
            return Finding(level: .error, subject: "database", message: "\(location.redacted): \(ErrorText.describe(error))")
        }
        guard status.exists else {
            let directory = (configuration.sqlitePath as NSString).deletingLastPathComponent
            // The nearest existing ancestor decides whether the directories can be made (a regular file there is
            // "Not a directory" at start).
            var parent = directory.isEmpty ? "." : directory
            var isDirectory: ObjCBool = false
            while !FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), parent != "/", parent != "." {
                let up = (parent as NSString).deletingLastPathComponent
                parent = up.isEmpty ? "." : up
            }
            if FileManager.default.fileExists(atPath: parent, isDirectory: &isDirectory), !isDirectory.boolValue {
                return Finding(level: .error, subject: "database", message: """
                    \(location.redacted) cannot be created: \(parent) is a file, not a directory; choose another --database
                    """)
            }
            if FileManager.default.fileExists(atPath: parent), !FileManager.default.isWritableFile(atPath: parent) {
                return Finding(level: .error, subject: "database", message: "\(location.redacted) does not exist and \(parent) is not writable")
            }
            return Finding(level: .note, subject: "database", message: "\(location.redacted) does not exist yet; assentd creates it at first start")
        }
        if status.pendingSteps.isEmpty {
            return Finding(level: .ok, subject: "database", message: "\(location.redacted) opened; its schema is up to date")
        }
        let steps = status.pendingSteps.map(String.init).joined(separator: ", ")
        return Finding(level: .note, subject: "database", message: """
            \(location.redacted) opened; schema steps \(steps) are pending (assentd applies them at start, or run \
            `assentd migrate`)
            """)
    }

    private func tls() -> Finding? {
        guard let cert = configuration.tlsCertificateFile, let key = configuration.tlsKeyFile else { return nil }
        do {
            _ = try TLSCredentials(certificateFile: cert, keyFile: key)
            return Finding(level: .ok, subject: "tls", message: "\(cert) and \(key) form a usable pair (HTTPS, TLS 1.2+)")
        } catch {
            return Finding(level: .error, subject: "tls", message: error.reason)
        }
    }

    private func webRoot() -> Finding {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: configuration.webRoot, isDirectory: &isDirectory), isDirectory.boolValue else {
            return Finding(level: .note, subject: "web root", message: "\(configuration.webRoot) is not a directory: the demo pages under /web/ will answer 404")
        }
        return Finding(level: .ok, subject: "web root", message: "\(configuration.webRoot) is a directory")
    }
}

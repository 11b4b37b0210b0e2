import AssentHTTP
import AssentLog
import AssentServerCore
import AssentWire
import Foundation
import AssentSync

/// The demo pages: static files from the web root (`--web-root`, default `web`), served flat under `/web/`.
///
/// - `GET /` and `GET /web` redirect to `/web/`, which serves `index.html`.
/// - `GET /web/{file}` serves one file of the web root. Names are letters, digits, `.`, `_` and `-`, start with a letter
///   or digit, hold no `..` and no percent escapes, and end in a known extension; anything else (traversal, encoded
///   slashes, hidden files, subdirectories, symlinks leading out of the root) is the same JSON `404 not_found` as a
///   missing file, so a probe learns nothing.
/// - `GET /challenge` serves `approve-push.html`: track's `url` is `{publicURL}/challenge?token=<track token>`.
///
/// Every page carries `Cache-Control: no-cache` with an `ETag` (so a browser revalidates cheaply), a
/// `Content-Security-Policy` that allows only this origin, `X-Content-Type-Options: nosniff` and
/// `Referrer-Policy: no-referrer` (the push page's URL holds a token). Files are kept in memory once read and read
/// again when their size or modification time changes.
final class WebPages: Sendable {
    /// Pages may load scripts, styles, images and connections (fetch, WebSocket) from this origin only.
    static let contentSecurityPolicy = [
        "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self'",
        "base-uri 'none'", "form-action 'self'", "frame-ancestors 'none'",
    ].joined(separator: "; ")

    /// The extensions served, with their `Content-Type`.
    static let contentTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "svg": "image/svg+xml", "png": "image/png", "ico": "image/x-icon", "txt": "text/plain; charset=utf-8",
        "json": "application/json", "webmanifest": "application/manifest+json",
    ]

    /// Files larger than this are not served (the demo pages are a few kilobytes).
    static let maxFileBytes = 2 << 20
    /// At most this many files are kept in memory.
    static let maxCachedFiles = 64

    private struct Entry: Sendable {
        let size: Int
        let modified: Date
        let body: [UInt8]
        let etag: String
    }

    /// Which files of the web root a listener serves: with a separate admin listener (`--admin-listen`) the
    /// console's own files (`console…`) are served there and not on the API listener.
    enum Files: Sendable {
        /// Every file (one listener for all).
        case all
        /// The console's files (`console…`) and the icon its pages name: the admin listener.
        case console
        /// Every file but the console's: the API listener beside an admin listener.
        case exceptConsole

        /// Whether a listener with this scope serves the file `name`.
        func serves(_ name: String) -> Bool {
            let isConsole = name.hasPrefix("console")
            return switch self {
            case .all: true
            case .console: isConsole || name == "icon.svg"
            case .exceptConsole: !isConsole
            }
        }
    }

    private let root: String
    private let files: Files
    private let cache = AssentLock<[String: Entry]>([:])

    /// Serves the files in `root` (relative paths are taken from the working directory). A missing root is logged
    /// once; the pages then answer 404 until it exists.
    init(root: String, files: Files = .all, logger: Logger) {
        self.files = files
        let absolute = URL(fileURLWithPath: root).standardizedFileURL.resolvingSymlinksInPath().path
        self.root = absolute
        var isDirectory: ObjCBool = false
        // Logged by one of the two instances an admin listener makes (the console's files and the rest), not twice.
        if files != .console,
           !FileManager.default.fileExists(atPath: absolute, isDirectory: &isDirectory) || !isDirectory.boolValue {
            logger.log(.warning, "web root not found; the demo pages and the console's style sheets answer 404",
                       ["webRoot": .string(absolute)])
        }
    }

    /// Adds the page routes.
    func register(in router: inout Router) {
        guard files != .console else {
            router.add(.webFile) { [self] request, parameters in
                guard let name = parameters["file"], request.path == PageRoute.webFile.path([name]) else { return Self.notFound() }
                return serve(name, request)
            }
            return
        }
        router.add(.home) { _, _ in Self.redirect(to: PageRoute.webIndex.path) }
        router.add(.webRedirect) { _, _ in Self.redirect(to: PageRoute.webIndex.path) }
        router.add(.webIndex) { [self] request, _ in serve("index.html", request) }
        router.add(.challengePage) { [self] request, _ in serve("approve-push.html", request) }
        router.add(.webFile) { [self] request, parameters in
            // The raw segment must be the plain name: no escapes, so `%2F`, `%2E%2E` and friends never reach the disk.
            guard let name = parameters["file"], request.path == PageRoute.webFile.path([name]) else { return Self.notFound() }
            return serve(name, request)
        }
    }

    private static func redirect(to location: String) -> HTTPResponse {
        HTTPResponse(status: 302, headers: HTTPHeaders([("Location", location), ("Cache-Control", "no-cache")]))
    }

    private static func notFound() -> HTTPResponse {
        .error(404, code: "not_found", description: "No such page.")
    }

    /// Whether `name` may name a file of the web root: a plain file name with a served extension.
    static func isServable(_ name: String) -> Bool {
        func isAlphanumeric(_ scalar: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
        }
        guard (1...128).contains(name.utf8.count), !name.contains(".."),
              let first = name.unicodeScalars.first, isAlphanumeric(first),
              name.unicodeScalars.allSatisfy({ isAlphanumeric($0) || "._-".unicodeScalars.contains($0) }),
              let dot = name.lastIndex(of: ".")
        else { return false }
        return contentTypes[name[name.index(after: dot)...].lowercased()] != nil
    }

    private func serve(_ name: String, _ request: HTTPRequest) -> HTTPResponse {
        guard Self.isServable(name), files.serves(name), let entry = load(name) else { return Self.notFound() }
        let type = Self.contentTypes[(name as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
        var headers = HTTPHeaders([
            ("Content-Type", type), ("Cache-Control", "no-cache"), ("ETag", entry.etag),
            ("Content-Security-Policy", Self.contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
        ])
        if let match = request.headers["If-None-Match"],
           match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == entry.etag }) {
            headers.remove("Content-Type")
            return HTTPResponse(status: 304, headers: headers)
        }
        return HTTPResponse(status: 200, headers: headers, body: entry.body)
    }

    /// The file's bytes, from memory while its size and modification time are unchanged; nil unless it is a regular
    /// file inside the root (after resolving symlinks) of at most ``maxFileBytes``.
    private func load(_ name: String) -> Entry? {
        let path = (root as NSString).appendingPathComponent(name)
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        guard resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/"),
              let attributes = try? FileManager.default.attributesOfItem(atPath: resolved),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue, size <= Self.maxFileBytes,
              let modified = attributes[.modificationDate] as? Date
        else { return nil }
        if let cached = cache.withLock({ $0[name] }), cached.size == size, cached.modified == modified {
            return cached
        }
        guard let data = FileManager.default.contents(atPath: resolved), data.count <= Self.maxFileBytes else { return nil }
        let body = [UInt8](data)
        let entry = Entry(size: size, modified: modified, body: body, etag: Self.etag(body))
        cache.withLock { cache in
            if cache[name] == nil, cache.count >= Self.maxCachedFiles { cache.removeAll() }
            cache[name] = entry
        }
        return entry
    }

    /// A strong validator: FNV-1a (64-bit) of the bytes and their length, quoted.
    private static func etag(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
        }
        return "\"\(String(hash, radix: 16))-\(String(bytes.count, radix: 16))\""
    }
}

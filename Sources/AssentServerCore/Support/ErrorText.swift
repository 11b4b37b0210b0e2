import Foundation

/// One line about an error for a person, from `assent` and `assentd` messages: Assent's own errors say themselves
/// (they are written for people), while Foundation's would print their raw form — `Error Domain=NSCocoaErrorDomain
/// Code=260 … UserInfo={…}` or a `DecodingError` case with Swift type names — so those are put in plain words.
package enum ErrorText {
    /// A short description of `error` with no Foundation dump and no Swift type name.
    package static func describe(_ error: any Error) -> String {
        switch error {
        case let error as DecodingError:
            return decoding(error)
        case is EncodingError:
            return "a value could not be written as JSON"
        case let error as POSIXError:
            return String(cString: strerror(error.code.rawValue))
        case let error as StoreError:
            return error.reason  // written for people; the code and source line are for code and logs
        default:
            let ns = error as NSError
            switch ns.domain {
            case NSCocoaErrorDomain:  // CocoaError (any NSError casts to it, so it is told apart by its domain)
                return file(
                    CocoaError.Code(rawValue: ns.code), path: ns.userInfo[NSFilePathErrorKey] as? String,
                    said: ns.userInfo[NSLocalizedDescriptionKey] as? String,
                    underlying: ns.userInfo[NSUnderlyingErrorKey] as? NSError)
            case "NSURLErrorDomain":  // URLError, whose type lives in FoundationNetworking (libcurl), not here
                return "network error: \(network(ns.code))"
            case NSPOSIXErrorDomain:
                return String(cString: strerror(Int32(ns.code)))
            default:
                return String(describing: error)
            }
        }
    }

    /// A file error in words: its kind when it has a known one, else what it says of itself (`said`: Assent's own
    /// file errors carry `strerror`'s text there) or the POSIX error beneath it — never a bare Foundation code.
    private static func file(_ code: CocoaError.Code, path: String?, said: String?, underlying: NSError?) -> String {
        let what: String
        switch code {
        case .fileNoSuchFile, .fileReadNoSuchFile: what = "no such file"
        case .fileReadNoPermission, .fileWriteNoPermission: what = "permission denied"
        case .fileWriteOutOfSpace: what = "no space left on the device"
        case .fileWriteFileExists: what = "the file exists"
        case .fileReadCorruptFile, .fileReadUnknownStringEncoding, .fileReadInapplicableStringEncoding:
            what = "the file cannot be read as expected"
        case .fileReadTooLarge: what = "the file is too large"
        default:
            if let said, !said.isEmpty {
                what = said
            } else if let underlying, underlying.domain == NSPOSIXErrorDomain {
                what = String(cString: strerror(Int32(underlying.code)))
            } else {
                what = "a file operation failed"
            }
        }
        return path.map { "\($0): \(what)" } ?? what
    }

    /// URLError codes, by value.
    private static func network(_ code: Int) -> String {
        switch code {
        case -1004: "the connection was refused"
        case -1003, -1006: "the host name was not found"
        case -1001: "the request timed out"
        case -1005: "the connection was lost"
        case -1009: "no network"
        case -1200, -1201, -1202, -1203, -1204, -1205, -1206: "the TLS connection failed"
        case -1000, -1002: "the URL is not valid"
        default: "code \(code)"
        }
    }

    private static func decoding(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the top level" : "'" + keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".") + "'"
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty: return "not valid JSON"
        case .dataCorrupted(let context): return "an unexpected value at \(path(context.codingPath))"
        case .keyNotFound(let key, let context): return "the field '\(key.stringValue)' is missing at \(path(context.codingPath))"
        case .typeMismatch(_, let context): return "a value of the wrong type at \(path(context.codingPath))"
        case .valueNotFound(_, let context): return "a missing value at \(path(context.codingPath))"
        @unknown default: return "unexpected JSON"
        }
    }
}

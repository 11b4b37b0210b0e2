import AssentHTTP
import AssentServerCore

/// Checks path parameters before they reach a service.
enum PathParameter {
    /// A user id: 1 to 255 bytes without control characters.
    static func userID(_ parameters: RouteParameters) throws -> String {
        try value(parameters, "userId", maxBytes: 255)
    }

    /// An action code: 1 to 100 characters of letters, digits and `_ - . :`.
    static func actionCode(_ parameters: RouteParameters) throws -> String {
        let code = try value(parameters, "action", maxBytes: 100)
        guard isActionCode(code) else {
            throw AssentError(.invalidRequest, "An action code may hold only letters, digits and _ - . :")
        }
        return code
    }

    /// Whether `code` holds only letters, digits and `_ - . :`.
    static func isActionCode(_ code: String) -> Bool {
        code.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "_-.:".unicodeScalars.contains($0)
        }
    }

    /// Any other identifier: 1 to 200 bytes without control characters.
    static func identifier(_ parameters: RouteParameters, _ name: String) throws -> String {
        try value(parameters, name, maxBytes: 200)
    }

    private static func value(_ parameters: RouteParameters, _ name: String, maxBytes: Int) throws -> String {
        guard let value = parameters[name], !value.isEmpty, value.utf8.count <= maxBytes,
              !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f })
        else {
            throw AssentError(.invalidRequest, "\(name) must be 1 to \(maxBytes) bytes without control characters.")
        }
        return value
    }
}

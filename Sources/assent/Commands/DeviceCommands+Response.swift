import Assent

extension AssentResponse {
    /// The data, or the SDK's error as a failure carrying its `errorCode`.
    func value(_ what: String) throws -> T? {
        if let error, let errorCode {
            throw CLIError.failure("\(what): \(error) (\(errorCode))", errorCode: errorCode)
        }
        if let error { throw CLIError.failure("\(what): \(error)") }
        if let errorCode { throw CLIError.failure("\(what): \(errorCode)", errorCode: errorCode) }
        return data
    }
}

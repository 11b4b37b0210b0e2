import Assent

extension AssentResponse {
    /// The data, or the SDK's error as a failure carrying its `errorCode`. A key store refusal about the passphrase
    /// (wrong, missing, or given for keys stored without one) also says what to do in this tool's terms: the SDK's
    /// words speak of opening the store, which here is `ASSENT_DEVICE_PASSPHRASE` or `--passphrase`.
    func value(_ what: String) throws -> T? {
        if let error, let errorCode {
            var message = "\(what): \(error) (\(errorCode))"
            if errorCode == AssentErrorCode.keyStoreError, error.contains("passphrase") {
                message += ". Run device commands with the passphrase this device's keys were stored with "
                    + "(ASSENT_DEVICE_PASSPHRASE, or --passphrase), or with none if they were stored without one"
            }
            throw CLIError.failure(message, errorCode: errorCode)
        }
        if let error { throw CLIError.failure("\(what): \(error)") }
        if let errorCode { throw CLIError.failure("\(what): \(errorCode)", errorCode: errorCode) }
        return data
    }
}

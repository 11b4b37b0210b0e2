extension AssentResponse {
    /// Runs an operation written with typed throws and turns its outcome into a response.
    static func run(_ operation: () async throws(ClientFailure) -> T?) async -> AssentResponse<T> {
        do {
            return AssentResponse(data: try await operation())
        } catch {
            return AssentResponse(error: error.error, errorCode: error.errorCode)
        }
    }
}

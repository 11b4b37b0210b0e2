import AssentServerCore

/// One result row, whichever database produced it, read by column index (0-based, in `SELECT` order), so
/// ``StoreRecords`` maps rows to domain types once for both stores. (A row type's metatype is sendable: a reader such
/// as `StoreRecords.tenant` is handed to a connection inside the `@Sendable` closure a store runs on it.)
protocol StoreRow: SendableMetatype {
    func int64(_ column: Int) -> Int64
    func optionalInt64(_ column: Int) -> Int64?
    func bool(_ column: Int) -> Bool
    /// The text in a NOT NULL column; throws `StoreError(.corrupt)` when it is NULL.
    func string(_ column: Int) throws -> String
    func optionalString(_ column: Int) -> String?
    func blob(_ column: Int) -> [UInt8]
    func optionalBlob(_ column: Int) -> [UInt8]?
}

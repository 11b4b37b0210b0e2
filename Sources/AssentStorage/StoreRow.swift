import AssentServerCore

/// One result row, whichever database produced it, read by column index (0-based, in `SELECT` order), so
/// ``StoreRecords`` maps rows to domain types once for both stores.
protocol StoreRow {
    func int64(_ column: Int) -> Int64
    func optionalInt64(_ column: Int) -> Int64?
    func bool(_ column: Int) -> Bool
    /// The text in a NOT NULL column; throws `StoreError(.corrupt)` when it is NULL.
    func string(_ column: Int) throws -> String
    func optionalString(_ column: Int) -> String?
    func blob(_ column: Int) -> [UInt8]
    func optionalBlob(_ column: Int) -> [UInt8]?
}

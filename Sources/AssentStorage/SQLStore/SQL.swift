/// The text of one statement in both dialects, written once.
///
/// Placeholders are PostgreSQL's numbered `$1`, `$2`, … (a number may recur); SQLite gets them as `?1`, `?2`, …,
/// which mean the same, so both bind the same values in the same order. What only one dialect says is interpolated
/// as `\(postgres: "FOR UPDATE")` or `\(sqlite: "…")` and is nothing in the other — for example a row lock, which
/// SQLite has no need of: its single writer runs one transaction at a time. Names and column lists are interpolated
/// as strings; a value never is (it is always a parameter).
///
/// Statements are built once, as `static let`s, so running one does no string work, and each connection's
/// prepared-statement cache is keyed on its own dialect's text.
struct SQL: Sendable, Hashable, ExpressibleByStringInterpolation {
    /// The text SQLite prepares.
    let sqlite: String
    /// The text PostgreSQL prepares.
    let postgres: String

    /// A statement whose dialects differ beyond a word or two (`$N` in `sqlite` still becomes `?N`).
    init(sqlite: String, postgres: String) {
        self.sqlite = Self.sqlitePlaceholders(sqlite)
        self.postgres = postgres
    }

    /// The same text for both.
    init(_ text: String) {
        self.init(sqlite: text, postgres: text)
    }

    init(stringLiteral value: String) {
        self.init(value)
    }

    init(stringInterpolation: StringInterpolation) {
        self.init(sqlite: stringInterpolation.sqlite, postgres: stringInterpolation.postgres)
    }

    /// `first`, then `second`, as one write whose parameters are numbered across both; what it reports is
    /// `second`'s. PostgreSQL runs them as one statement, `WITH first AS (… RETURNING 1) second` — one round trip;
    /// SQLite, which has no data-changing statement inside `WITH`, runs them one after the other inside its writer's
    /// transaction. `second` must not read what `first` wrote (PostgreSQL's does not see it; foreign keys are checked
    /// once both ran).
    static func chain(_ first: SQL, then second: SQL) -> SQL {
        SQL(
            sqlite: first.sqlite + ";\n" + second.sqlite,
            postgres: "WITH first AS (\n" + first.postgres + "\nRETURNING 1)\n" + second.postgres)
    }

    /// `parts` one after the other, a line each.
    static func lines(_ parts: [SQL]) -> SQL {
        SQL(sqlite: parts.map(\.sqlite).joined(separator: "\n"), postgres: parts.map(\.postgres).joined(separator: "\n"))
    }

    /// `$N` placeholders (outside quoted text) as SQLite's `?N`.
    static func sqlitePlaceholders(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "$")) else { return text }
        var bytes = Array(text.utf8)
        var quoted = false
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "'"): quoted.toggle()
            case UInt8(ascii: "$") where !quoted && index + 1 < bytes.count
                && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1]):
                bytes[index] = UInt8(ascii: "?")
            default: break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var sqlite = ""
        var postgres = ""

        init(literalCapacity: Int, interpolationCount: Int) {
            sqlite.reserveCapacity(literalCapacity)
            postgres.reserveCapacity(literalCapacity)
        }

        mutating func appendLiteral(_ literal: String) {
            sqlite += literal
            postgres += literal
        }

        /// A name or a column list, the same in both.
        mutating func appendInterpolation(_ text: String) {
            appendLiteral(text)
        }

        /// A number written into the text (a migration's version).
        mutating func appendInterpolation(_ number: Int) {
            appendLiteral(String(number))
        }

        /// Another statement's text, each dialect's own.
        mutating func appendInterpolation(_ sql: SQL) {
            sqlite += sql.sqlite
            postgres += sql.postgres
        }

        /// Text only PostgreSQL reads.
        mutating func appendInterpolation(postgres text: String) {
            postgres += text
        }

        /// Text only SQLite reads.
        mutating func appendInterpolation(sqlite text: String) {
            sqlite += text
        }

        /// The same thing in each dialect's words.
        mutating func appendInterpolation(sqlite: String, postgres: String) {
            self.sqlite += sqlite
            self.postgres += postgres
        }
    }
}

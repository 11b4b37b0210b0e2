/// `GET /healthz`: the server and its database answer (a load balancer's or an operator's probe, not an app's or a
/// backend's, hence `package`). ``HealthUnavailableResponse`` is the `503` when the database does not answer;
/// ``LivenessResponse`` and ``ReadinessResponse`` answer the narrower probes.
package struct HealthResponse: Codable, Sendable, Hashable, WireSchema {
    /// `ok`.
    package var status: String
    /// `ok`.
    package var database: String
    /// `sqlite` or `postgresql`.
    package var databaseKind: String
    /// How long the database took to answer the check, in milliseconds (to the microsecond).
    package var databaseLatencyMs: Double?

    /// A healthy answer.
    package init(databaseKind: String, databaseLatencyMs: Double?) {
        status = "ok"
        database = "ok"
        self.databaseKind = databaseKind
        self.databaseLatencyMs = databaseLatencyMs
    }

    /// The fields and their descriptions.
    package static let wireFields = WireFields<Self>("The server and its database answer.", name: "Health", [
        .field("status", \.status, nil),
        .field("database", \.database, nil),
        .field("databaseKind", \.databaseKind, "sqlite or postgresql."),
        .optional("databaseLatencyMs", \.databaseLatencyMs, nil),
    ])
}

/// `GET /healthz` when the database does not answer (`503`): the error envelope (``ErrorResponse``) with the health
/// fields, in one object.
package struct HealthUnavailableResponse: Codable, Sendable, Hashable, WireSchema {
    /// The error envelope: `unavailable`, and why.
    package var envelope: ErrorResponse
    /// `unavailable`.
    package var status: String
    /// `error`.
    package var database: String
    /// `sqlite` or `postgresql`.
    package var databaseKind: String

    /// The answer for a database that does not answer, with the envelope's code and description.
    package init(databaseKind: String, errorCode: String, errorDescription: String) {
        envelope = ErrorResponse(errorCode: errorCode, errorDescription: errorDescription)
        status = "unavailable"
        database = "error"
        self.databaseKind = databaseKind
    }

    /// The envelope's fields and its own.
    package static let wireFields = WireFields<Self>(
        "The database does not answer: the error envelope with the health fields.", name: "HealthUnavailable",
        extending: \.envelope, "Health fields.", [
            .field("status", \.status, nil),
            .field("database", \.database, nil),
            .field("databaseKind", \.databaseKind, nil),
        ])

    private enum CodingKeys: String, CodingKey { case status, database, databaseKind }

    /// Reads the envelope's fields and its own from one object.
    package init(from decoder: any Decoder) throws {
        envelope = try ErrorResponse(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decode(String.self, forKey: .status)
        database = try container.decode(String.self, forKey: .database)
        databaseKind = try container.decode(String.self, forKey: .databaseKind)
    }

    /// Writes the envelope's fields and its own into one object.
    package func encode(to encoder: any Encoder) throws {
        try envelope.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(database, forKey: .database)
        try container.encode(databaseKind, forKey: .databaseKind)
    }
}

/// `GET /healthz/live`: the process answers (the database is not asked).
package struct LivenessResponse: Codable, Sendable, Hashable, WireSchema {
    /// `ok`.
    package var status = "ok"

    /// The answer.
    package init() {}

    /// The field; the operation writes the schema in place.
    package static let wireFields = WireFields<Self>("Alive.", inline: true, [
        .field("status", \.status, nil),
    ])
}

/// `GET /healthz/ready`: the store answers and has every schema step this build knows (otherwise a `503` error).
package struct ReadinessResponse: Codable, Sendable, Hashable, WireSchema {
    /// `ready`.
    package var status = "ready"
    /// `sqlite` or `postgresql`.
    package var databaseKind: String

    /// The answer for a store of `databaseKind`.
    package init(databaseKind: String) { self.databaseKind = databaseKind }

    /// The fields; the operation writes the schema in place.
    package static let wireFields = WireFields<Self>("Ready.", inline: true, [
        .field("status", \.status, nil),
        .field("databaseKind", \.databaseKind, nil),
    ])
}

import AssentWire

/// One documented route of the endpoint catalogue (``Endpoint``): how it is secured, what it takes and answers.
struct OpenAPIOperation {
    /// The route.
    let endpoint: Endpoint
    /// The `operationId`: the catalogue's case name.
    let id: String
    /// The group it is listed under.
    let tag: String
    /// One line on what it does.
    let summary: String
    /// The security requirements (`[]`: public).
    let security: [[String: [String]]]
    /// Path, query and header parameters.
    var parameters: [[String: Any]] = []
    /// The JSON body's component and whether it is required.
    var body: (schemaNamed: String, required: Bool)?
    /// The 200 answer.
    let ok: [String: Any]
    /// Answers besides 200 and the errors (e.g. a 503 with its own schema).
    var extra: [String: Any] = [:]
    /// The error statuses it answers in the envelope.
    let errors: [Int]

    /// An operation whose body is the wire type `body`.
    init(
        endpoint: Endpoint, id: String, tag: String, summary: String, security: [[String: [String]]],
        parameters: [[String: Any]] = [], body: (type: any WireNamed.Type, required: Bool),
        ok: [String: Any], extra: [String: Any] = [:], errors: [Int]
    ) {
        self.init(endpoint: endpoint, id: id, tag: tag, summary: summary, security: security, parameters: parameters,
                  body: (body.type.wireName, body.required), ok: ok, extra: extra, errors: errors)
    }

    /// An operation whose body, if any, is the component `body`.
    init(
        endpoint: Endpoint, id: String, tag: String, summary: String, security: [[String: [String]]],
        parameters: [[String: Any]] = [], body: (schemaNamed: String, required: Bool)? = nil,
        ok: [String: Any], extra: [String: Any] = [:], errors: [Int]
    ) {
        self.endpoint = endpoint
        self.id = id
        self.tag = tag
        self.summary = summary
        self.security = security
        self.parameters = parameters
        self.body = body
        self.ok = ok
        self.extra = extra
        self.errors = errors
    }
}

extension OpenAPIOperation {
    /// The operation object.
    var json: [String: Any] {
        var responses: [String: Any] = ["200": ok]
        responses.merge(extra) { first, _ in first }
        for status in errors { responses[String(status)] = ["$ref": "#/components/responses/Error\(status)"] }
        // Every operation may also meet the HTTP layer's and the store's refusals, all in the envelope.
        responses["default"] = ["$ref": "#/components/responses/Error"]
        var operation: [String: Any] = [
            "operationId": id, "tags": [tag], "summary": summary, "security": security, "responses": responses,
        ]
        if !parameters.isEmpty { operation["parameters"] = parameters }
        if let body {
            operation["requestBody"] = [
                "required": body.required, "content": ["application/json": ["schema": OpenAPISchemas.ref(body.schemaNamed)]],
            ] as [String: Any]
        }
        return operation
    }
}

// The tables below are `[String: Any]` (what `JSONSerialization` writes) and read by one thread only: this is a
// command-line tool that builds one document, hence `nonisolated(unsafe)`.
extension OpenAPIOperation {
    static let server: [[String: [String]]] = [["secretKey": []]]
    static let tenant: [[String: [String]]] = [["tenantId": []]]
    static let bearer: [[String: [String]]] = [["trackToken": []]]

    /// A 200 answer of `type`.
    static func ok(_ description: String, _ type: any WireNamed.Type) -> [String: Any] {
        ok(description, schemaNamed: type.wireName)
    }

    /// A 200 answer of the component `name`.
    static func ok(_ description: String, schemaNamed name: String) -> [String: Any] {
        ["description": description, "content": ["application/json": ["schema": OpenAPISchemas.ref(name)]]]
    }

    /// A 200 answer of `contentType` with `schema`.
    static func ok(_ description: String, _ contentType: String, _ schema: [String: Any]) -> [String: Any] {
        ["description": description, "content": [contentType: ["schema": schema]]]
    }

    static func pathParameter(_ name: String, _ description: String, maxLength: Int = 200, pattern: String? = nil) -> [String: Any] {
        var schema: [String: Any] = ["type": "string", "minLength": 1, "maxLength": maxLength]
        if let pattern { schema["pattern"] = pattern }
        return ["name": name, "in": "path", "required": true, "description": description, "schema": schema]
    }

    static func queryParameter(_ name: String, _ description: String, maxLength: Int, required: Bool = true) -> [String: Any] {
        ["name": name, "in": "query", "required": required, "description": description,
         "schema": ["type": "string", "minLength": 1, "maxLength": maxLength] as [String: Any]]
    }

    nonisolated(unsafe) static let userID = pathParameter("userId", "The user: 1 to 255 bytes without control characters.", maxLength: 255)
    nonisolated(unsafe) static let action = pathParameter(
        "action", "The action code: letters, digits and _ - . :", maxLength: ActionCode.maxLength,
        pattern: "^[A-Za-z0-9_.:-]{1,100}$")
    nonisolated(unsafe) static let idempotencyKey = pathParameter("idempotencyKey", "The action's idempotency key.")
    nonisolated(unsafe) static let activationID = pathParameter("activationId", "The activation.")
    nonisolated(unsafe) static let publicKey = queryParameter("publicKey", "The device credential's public key (SPKI DER, Base64).", maxLength: 1024)
    nonisolated(unsafe) static let tenantHeader: [String: Any] = [
        "name": "X-Authsignal-Tenant-ID", "in": "header", "required": false,
        "description": "The tenant the device is configured for (the official SDKs send it): when present it must be "
            + "the track token's tenant, else 403 tenant_mismatch and nothing is stored.",
        "schema": ["type": "string", "maxLength": 128] as [String: Any],
    ]
    nonisolated(unsafe) static let qrTenant = queryParameter("tenant", "The tenant ID.", maxLength: 128)
    static let powerAuthOrTenant: [[String: [String]]] = [["tenantId": [], "powerAuth": []], ["tenantId": []]]
}

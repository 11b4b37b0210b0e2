package import AssentCrypto
package import AssentWire

extension TenantSetting {
    /// What kind of value a setting holds — on/off, a number in a range, a duration, an action code list, a map of
    /// rules — and so how it is typed, shown, sent and checked (always by ``TenantSettingRules``). The table picks one
    /// per setting; a new kind of value is a new static member here.
    package struct Kind<Value: Sendable>: Sendable {
        let placeholder: String
        let accepts: String
        let control: Control
        var unit: String? = nil
        var schema: JSONValue
        let text: @Sendable (Value) -> String
        var words: @Sendable (Value) -> String? = { _ in nil }
        /// The value for a person reading the CLI's text, when neither ``words`` nor ``text`` say it (no value).
        var describe: (@Sendable (Value) -> String?)? = nil
        let json: @Sendable (Value) -> JSONValue
        /// Typed text (trimmed by the rules), naming the second argument in a refusal.
        let readText: @Sendable (String, String) throws -> Value
        /// One repeated flag's entry merged into the value; nil when the flag replaces the value.
        var mergeFlag: (@Sendable (String, String, inout Value) throws -> Void)? = nil
        /// JSON, naming the second argument in a refusal; the third says whether bounds are checked.
        let readJSON: @Sendable (JSONValue, String, Bool) throws -> Value
    }

    /// A setting whose value is stored at `setting`, of `kind`.
    package init<Value>(
        _ name: String, flag: String, label: String, group: Group, effect: String,
        setting: any WritableKeyPath<TenantSettings, Value> & Sendable, kind: Kind<Value>
    ) {
        self.name = name
        self.flag = flag
        self.label = label
        self.group = group
        self.effect = effect
        placeholder = kind.placeholder
        accepts = kind.accepts
        control = kind.control
        unit = kind.unit
        isRepeatable = kind.mergeFlag != nil
        var schema = kind.schema
        if case .object(var members) = schema {
            members["description"] = .string(effect)
            schema = .object(members)
        }
        self.schema = schema
        text = { kind.text($0[keyPath: setting]) }
        words = { kind.words($0[keyPath: setting]) }
        described = { settings in
            let value = settings[keyPath: setting]
            if let described = kind.describe?(value) { return described }
            let text = kind.text(value).split(whereSeparator: \.isNewline).joined(separator: ", ")
            return kind.words(value) ?? (text.isEmpty ? "none" : text)
        }
        json = { kind.json($0[keyPath: setting]) }
        readText = { text, name, settings in settings[keyPath: setting] = try kind.readText(text, name) }
        readFlag = { text, name, settings in
            if let merge = kind.mergeFlag {
                try merge(text, name, &settings[keyPath: setting])
            } else {
                settings[keyPath: setting] = try kind.readText(text, name)
            }
        }
        readJSON = { value, name, checked, settings in settings[keyPath: setting] = try kind.readJSON(value, name, checked) }
    }
}

// MARK: - The kinds

extension TenantSetting.Kind where Value == Bool {
    /// On or off.
    package static var onOff: Self {
        Self(
            placeholder: "on|off", accepts: "on or off", control: .choice(["on", "off"]),
            schema: .object(["type": .string("boolean")]), text: { $0 ? "on" : "off" }, json: { .bool($0) },
            readText: { try TenantSettingRules.onOff($0, $1) },
            readJSON: { value, name, _ in
                guard case .bool(let flag) = value else { throw TenantSettingRules.wrongType(name, "true or false") }
                return flag
            })
    }
}

extension TenantSetting.Kind where Value == Int {
    /// A whole number within `range`.
    package static func number(_ range: ClosedRange<Int>) -> Self {
        Self(
            placeholder: "N", accepts: "a whole number from \(range.lowerBound) to \(range.upperBound)",
            control: .text(numeric: true), schema: TenantSettingRules.integerSchema(range), text: { String($0) },
            json: { .number(Double($0)) },
            readText: { try TenantSettingRules.number($0, $1, range) },
            readJSON: { try TenantSettingRules.integer($0, $1, $2 ? range : nil) })
    }

    /// A duration in whole seconds within `range`, said in units where it is shown ("1 hour 30 minutes").
    package static func seconds(_ range: ClosedRange<Int>) -> Self {
        var kind = number(range)
        kind = Self(
            placeholder: "SECONDS", accepts: TenantSettingRules.secondsAccepted(range), control: kind.control,
            unit: "seconds", schema: kind.schema, text: kind.text, words: { TenantSettingRules.duration($0) },
            json: kind.json, readText: kind.readText, readJSON: kind.readJSON)
        return kind
    }
}

extension TenantSetting.Kind {
    /// `wrapped` or nothing: typed as empty text or `noneWord` (`none`, `default`), null in JSON, shown as
    /// `noneMeaning` by the CLI.
    package static func optional<Wrapped: Sendable>(
        _ wrapped: TenantSetting.Kind<Wrapped>, noneWord: String, noneMeaning: String
    ) -> Self where Value == Wrapped? {
        var schema = wrapped.schema
        if case .object(var members) = schema, case .string(let type) = members["type"] ?? .null {
            members["type"] = .array([.string(type), .string("null")])
            schema = .object(members)
        }
        return Self(
            placeholder: wrapped.placeholder + "|" + noneWord, accepts: wrapped.accepts + ", or empty",
            control: wrapped.control, unit: wrapped.unit, schema: schema, text: { $0.map(wrapped.text) ?? "" },
            words: { $0.flatMap(wrapped.words) }, describe: { $0 == nil ? noneMeaning : nil },
            json: { $0.map(wrapped.json) ?? .null },
            readText: { text, name in
                let trimmed = TenantSettingRules.trimmed(text)
                return trimmed.isEmpty || trimmed.lowercased() == noneWord ? nil : try wrapped.readText(trimmed, name)
            },
            readJSON: { value, name, checked in value == .null ? nil : try wrapped.readJSON(value, name, checked) })
    }
}

extension TenantSetting.Kind where Value == ActionState {
    /// One of the action states (`BLOCK`, `block` and `challenge-required` are all understood as text).
    package static var state: TenantSetting.Kind<ActionState> {
        let names = ActionState.allCases.map(\.rawValue)
        return Self(
            placeholder: "STATE", accepts: "one of the action states", control: .choice(names),
            schema: .object(["type": .string("string"), "enum": .array(names.map(JSONValue.string))]), text: { $0.rawValue },
            json: { .string($0.rawValue) },
            readText: { try TenantSettingRules.state($0, $1) },
            readJSON: { value, name, _ in
                guard case .string(let text) = value, let state = ActionState(rawValue: text) else {
                    throw TenantSettingRules.wrongType(name, "one of " + names.joined(separator: ", "))
                }
                return state
            })
    }
}

extension TenantSetting.Kind where Value == PowerAuthSignatureType? {
    /// The PowerAuth signature factors approvals need, or none.
    package static var factor: TenantSetting.Kind<PowerAuthSignatureType?> {
        let names = PowerAuthSignatureType.allCases.map(\.rawValue)
        return Self(
            placeholder: "TYPE|none", accepts: "a PowerAuth signature type, or none", control: .choice(["none"] + names),
            schema: .object([
                "type": .array([.string("string"), .string("null")]),
                "enum": .array(names.map(JSONValue.string) + [.null]),
            ]),
            text: { $0?.rawValue ?? "none" }, json: { $0.map { .string($0.rawValue) } ?? .null },
            readText: { try TenantSettingRules.factor($0, $1) },
            readJSON: { value, name, _ in
                if value == .null { return nil }
                guard case .string(let text) = value, let type = PowerAuthSignatureType(rawValue: text) else {
                    throw TenantSettingRules.wrongType(name, "null or one of " + names.joined(separator: ", "))
                }
                return type
            })
    }
}

extension TenantSetting.Kind where Value == String? {
    /// An http(s) URL with a host, or none.
    package static var url: Self {
        Self(
            placeholder: "URL|none", accepts: "an http(s) URL, or empty", control: .text(numeric: false),
            schema: .object([
                "type": .array([.string("string"), .string("null")]), "format": .string("uri"), "maxLength": .number(2048),
            ]),
            text: { $0 ?? "" },
            json: { $0.map(JSONValue.string) ?? .null },
            readText: { text, name in
                TenantSettingRules.trimmed(text).isEmpty ? nil : try TenantSettingRules.webhookURL(text, name)
            },
            readJSON: { value, name, checked in
                if value == .null { return nil }
                guard case .string(let text) = value else { throw TenantSettingRules.wrongType(name, "a URL or null") }
                guard checked else { return text }
                guard let url = try TenantSettingRules.webhookURL(text, name) else {
                    throw TenantSettingRules.wrongType(name, "a URL or null")
                }
                return url
            })
    }
}

extension TenantSetting.Kind where Value == [String] {
    /// Custom data keys: comma-separated as text, an array of strings in JSON.
    package static var keys: Self {
        Self(
            placeholder: "K1,K2", accepts: "comma-separated keys, or empty", control: .text(numeric: false),
            schema: .object([
                "type": .string("array"), "maxItems": .number(100),
                "items": .object(["type": .string("string"), "minLength": .number(1), "maxLength": .number(200)]),
            ]),
            text: { $0.joined(separator: ", ") }, json: { .array($0.map(JSONValue.string)) },
            readText: { text, _ in TenantSettingRules.keys(text) },
            readJSON: { value, name, checked in
                let keys = try TenantSettingRules.strings(value, name)
                if checked, keys.count > 100 || keys.contains(where: { $0.isEmpty || $0.utf8.count > 200 }) {
                    throw TenantSettingRules.wrongType(name, "at most 100 keys of 1 to 200 bytes")
                }
                return keys
            })
    }

    /// Action codes: comma-separated as text (`none` or empty for none), an array of strings in JSON; at most
    /// `maximum` of them, however they are sent (the CLI's text, the server API's JSON, the console's form).
    package static func actionCodes(maximum: Int) -> Self {
        @Sendable func counted(_ codes: [String], _ name: String) throws -> [String] {
            guard codes.count <= maximum else {
                throw TenantSettingRules.wrongType(name, "at most \(maximum) action codes")
            }
            return codes
        }
        return Self(
            placeholder: "A1,A2|none", accepts: "comma-separated action codes, or empty for none",
            control: .text(numeric: false),
            schema: .object([
                "type": .string("array"), "maxItems": .number(Double(maximum)),
                "items": .object(["type": .string("string"), "pattern": .string(TenantSettingRules.actionCodePattern)]),
            ]),
            text: { $0.joined(separator: ", ") }, json: { .array($0.map(JSONValue.string)) },
            readText: { text, name in
                TenantSettingRules.trimmed(text).isEmpty ? [] : try counted(TenantSettingRules.anonymousActions(text, name), name)
            },
            readJSON: { value, name, checked in
                let codes = try TenantSettingRules.strings(value, name)
                guard checked else { return codes }
                return try counted(codes, name).map { try TenantSettingRules.actionCode($0, name) }
            })
    }
}

extension TenantSetting.Kind where Value == [String: TenantSettings.ActionRule] {
    /// Per action code, the states for enrolled and unenrolled users: `ACTION:ENROLLED_STATE:UNENROLLED_STATE` a line
    /// (a flag each; both states empty removes the action's rule), `{"ACTION": {"enrolled", "unenrolled"}}` in JSON.
    package static var actionRules: TenantSetting.Kind<[String: TenantSettings.ActionRule]> {
        Self(
            placeholder: "ACTION:ENROLLED_STATE:UNENROLLED_STATE",
            accepts: "one per line: ACTION:ENROLLED_STATE:UNENROLLED_STATE (a state may be left empty)", control: .lines,
            schema: actionRulesSchema, text: actionRulesText, json: actionRulesJSON,
            readText: { text, name in
                var rules: Value = [:]
                for line in TenantSettingRules.lines(text) { try mergeActionRule(line, name, &rules) }
                return rules
            },
            mergeFlag: mergeActionRule, readJSON: readActionRules)
    }

    private static var actionRulesSchema: JSONValue {
        let states = ActionState.allCases.map(\.rawValue)
        let state = JSONValue.object([
            "type": .array([.string("string"), .string("null")]), "enum": .array(states.map(JSONValue.string) + [.null]),
        ])
        let rule = JSONValue.object([
            "type": .string("object"), "properties": .object(["enrolled": state, "unenrolled": state]),
            "additionalProperties": .bool(false),
        ])
        return .object([
            "type": .string("object"), "maxProperties": .number(100),
            "propertyNames": .object(["pattern": .string(TenantSettingRules.actionCodePattern)]), "additionalProperties": rule,
        ])
    }

    private static func actionRulesText(_ rules: Value) -> String {
        rules.sorted { $0.key < $1.key }.map { action, rule in
            action + ":" + (rule.enrolled?.rawValue ?? "") + ":" + (rule.unenrolled?.rawValue ?? "")
        }.joined(separator: "\n")
    }

    private static func actionRulesJSON(_ rules: Value) -> JSONValue {
        func state(_ state: ActionState?) -> JSONValue { state.map { .string($0.rawValue) } ?? .null }
        return .object(rules.mapValues { rule in .object(["enrolled": state(rule.enrolled), "unenrolled": state(rule.unenrolled)]) })
    }

    @Sendable private static func mergeActionRule(_ text: String, _ name: String, _ rules: inout Value) throws {
        let (action, rule) = try TenantSettingRules.actionRule(text, name)
        rules[action] = rule.enrolled == nil && rule.unenrolled == nil ? nil : rule
    }

    @Sendable private static func readActionRules(_ value: JSONValue, _ name: String, _ checked: Bool) throws -> Value {
        guard case .object(let members) = value, !checked || members.count <= 100 else {
            throw TenantSettingRules.wrongType(name, "an object of at most 100 action rules")
        }
        var rules: Value = [:]
        for (action, body) in members {
            let code = checked ? try TenantSettingRules.actionCode(action, name) : action
            guard case .object(let parts) = body, Set(parts.keys).isSubset(of: ["enrolled", "unenrolled"]) else {
                throw TenantSettingRules.wrongType("\(name).\(action)", "an object with enrolled and unenrolled")
            }
            func state(_ key: String) throws -> ActionState? {
                let part = parts[key] ?? .null
                if part == .null { return nil }
                guard case .string(let text) = part, let state = ActionState(rawValue: text) else {
                    throw TenantSettingRules.wrongType("\(name).\(action).\(key)", "null or an action state")
                }
                return state
            }
            let rule = TenantSettings.ActionRule(enrolled: try state("enrolled"), unenrolled: try state("unenrolled"))
            if rule.enrolled != nil || rule.unenrolled != nil { rules[code] = rule }
        }
        return rules
    }
}

extension TenantSetting.Kind where Value == [String: PowerAuthSignatureType] {
    /// Per action code, the factors its approvals need: `ACTION:TYPE` a line (a flag each; `ACTION:none` removes it),
    /// `{"ACTION": "TYPE"}` in JSON.
    package static var approvalFactorRules: TenantSetting.Kind<[String: PowerAuthSignatureType]> {
        Self(
            placeholder: "ACTION:TYPE|ACTION:none", accepts: "one per line: ACTION:TYPE", control: .lines,
            schema: factorRulesSchema, text: factorRulesText, json: { rules in .object(rules.mapValues { .string($0.rawValue) }) },
            readText: { text, name in
                var rules: Value = [:]
                for line in TenantSettingRules.lines(text) { try mergeFactorRule(line, name, &rules) }
                return rules
            },
            mergeFlag: mergeFactorRule, readJSON: readFactorRules)
    }

    private static var factorRulesSchema: JSONValue {
        let names = PowerAuthSignatureType.allCases.map(\.rawValue)
        return .object([
            "type": .string("object"), "maxProperties": .number(100),
            "propertyNames": .object(["pattern": .string(TenantSettingRules.actionCodePattern)]),
            "additionalProperties": .object(["type": .string("string"), "enum": .array(names.map(JSONValue.string))]),
        ])
    }

    private static func factorRulesText(_ rules: Value) -> String {
        rules.sorted { $0.key < $1.key }.map { action, factor in action + ":" + factor.rawValue }.joined(separator: "\n")
    }

    @Sendable private static func mergeFactorRule(_ text: String, _ name: String, _ rules: inout Value) throws {
        let (action, factor) = try TenantSettingRules.approvalFactorRule(text, name)
        rules[action] = factor
    }

    @Sendable private static func readFactorRules(_ value: JSONValue, _ name: String, _ checked: Bool) throws -> Value {
        guard case .object(let members) = value, !checked || members.count <= 100 else {
            throw TenantSettingRules.wrongType(name, "an object of at most 100 action factors")
        }
        var rules: Value = [:]
        for (action, factor) in members {
            let code = checked ? try TenantSettingRules.actionCode(action, name) : action
            guard case .string(let text) = factor, let type = PowerAuthSignatureType(rawValue: text) else {
                let names = PowerAuthSignatureType.allCases.map(\.rawValue)
                throw TenantSettingRules.wrongType("\(name).\(action)", "one of " + names.joined(separator: ", "))
            }
            rules[code] = type
        }
        return rules
    }
}

extension TenantSetting.Kind where Value: RawRepresentable & CaseIterable, Value.RawValue == String {
    /// One of the values of a string enumeration, spelled as its raw value (any case as text).
    package static var choice: TenantSetting.Kind<Value> {
        let names = Value.allCases.map(\.rawValue)
        return TenantSetting.Kind<Value>(
            placeholder: names.joined(separator: "|"), accepts: "one of " + names.joined(separator: ", "),
            control: .choice(names),
            schema: .object(["type": .string("string"), "enum": .array(names.map(JSONValue.string))]),
            text: { $0.rawValue }, json: { .string($0.rawValue) },
            readText: { text, name in
                guard let value = Value(rawValue: TenantSettingRules.trimmed(text).lowercased()) else {
                    throw AssentError(.invalidRequest, "\(name) must be one of \(names.joined(separator: ", ")), got '\(text)'")
                }
                return value
            },
            readJSON: { json, name, _ in
                guard case .string(let text) = json, let value = Value(rawValue: text) else {
                    throw TenantSettingRules.wrongType(name, "one of " + names.joined(separator: ", "))
                }
                return value
            })
    }
}

extension TenantSetting.Kind where Value == [String] {
    /// App Attest app ids, `TEAMID.bundle.id` (a ten-character team id): comma-separated as text, an array in JSON.
    package static var appleAppIds: TenantSetting.Kind<[String]> {
        TenantSetting.Kind<[String]>(
            placeholder: "TEAMID.bundle.id,…", accepts: "comma-separated app ids (TEAMID.bundle.id), or empty",
            control: .text(numeric: false),
            schema: .object([
                "type": .string("array"), "maxItems": .number(20),
                "items": .object(["type": .string("string"), "pattern": .string(TenantSettingRules.appIdPattern)]),
            ]),
            text: { $0.joined(separator: ", ") }, json: { .array($0.map(JSONValue.string)) },
            readText: { text, name in try TenantSettingRules.keys(text).map { try TenantSettingRules.appleAppId($0, name) } },
            readJSON: { value, name, checked in
                let ids = try TenantSettingRules.strings(value, name)
                guard checked else { return ids }
                guard ids.count <= 20 else { throw TenantSettingRules.wrongType(name, "at most 20 app ids") }
                return try ids.map { try TenantSettingRules.appleAppId($0, name) }
            })
    }
}

extension TenantSetting.Kind where Value == [AndroidPackageRule] {
    /// Android apps: `package.name:HEX,HEX` a line (a flag each, adding or replacing the package's line;
    /// `package.name:none` removes it), `[{"packageName", "signingCertificateSha256": [hex]}]` in JSON.
    package static var androidPackages: TenantSetting.Kind<[AndroidPackageRule]> {
        TenantSetting.Kind<[AndroidPackageRule]>(
            placeholder: "PACKAGE:SHA256,…", accepts: "one per line: package.name:SHA256HEX,SHA256HEX", control: .lines,
            schema: .object([
                "type": .string("array"), "maxItems": .number(20),
                "items": .object([
                    "type": .string("object"), "additionalProperties": .bool(false),
                    "required": .array([.string("packageName"), .string("signingCertificateSha256")]),
                    "properties": .object([
                        "packageName": .object(["type": .string("string"), "pattern": .string(TenantSettingRules.packagePattern)]),
                        "signingCertificateSha256": .object([
                            "type": .string("array"), "minItems": .number(1), "maxItems": .number(10),
                            "items": .object(["type": .string("string"), "pattern": .string("^[0-9a-fA-F]{64}$")]),
                        ]),
                    ]),
                ]),
            ]),
            text: { rules in
                rules.map { $0.packageName + ":" + $0.signingCertificateSha256.joined(separator: ",") }.joined(separator: "\n")
            },
            json: { rules in
                .array(rules.map { rule in
                    .object([
                        "packageName": .string(rule.packageName),
                        "signingCertificateSha256": .array(rule.signingCertificateSha256.map(JSONValue.string)),
                    ])
                })
            },
            readText: { text, name in
                var rules: [AndroidPackageRule] = []
                for line in TenantSettingRules.lines(text) { try TenantSettingRules.mergeAndroidPackage(line, name, &rules) }
                return rules
            },
            mergeFlag: { text, name, rules in try TenantSettingRules.mergeAndroidPackage(text, name, &rules) },
            readJSON: { value, name, checked in
                guard case .array(let items) = value, !checked || items.count <= 20 else {
                    throw TenantSettingRules.wrongType(name, "an array of at most 20 packages")
                }
                return try items.map { item in
                    guard case .object(let members) = item, case .string(let package) = members["packageName"] ?? .null,
                          let digests = try? TenantSettingRules.strings(members["signingCertificateSha256"] ?? .null, name)
                    else {
                        throw TenantSettingRules.wrongType(name, "an array of {packageName, signingCertificateSha256}")
                    }
                    guard checked else { return AndroidPackageRule(packageName: package, signingCertificateSha256: digests) }
                    return try TenantSettingRules.androidPackage(package, digests, name)
                }
            })
    }
}

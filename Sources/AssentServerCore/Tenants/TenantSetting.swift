package import AssentWire

/// One tenant setting, declared once in ``TenantSettings/table``: its names, group, effect, and how its value is
/// typed, shown, sent and checked. Every place a setting appears follows from this declaration — the server API's
/// `GET`/`PATCH /v1/tenant/settings` and its OpenAPI schema, `assent admin tenant settings` (its flags, help, text and
/// `--json`), the console's settings page, the stored settings' defaults, and `docs/tenant-settings.md` — so adding a
/// setting is a property of ``TenantSettings`` plus one entry in the table, and the code that gives it its effect.
///
/// A value is read from text (a CLI flag, a console form field) and from JSON (the server API) by the same rules
/// (``TenantSettingRules``), each naming the flag, label or key in its message; nothing changes unless every value is
/// valid, which callers ensure by reading into a copy.
package struct TenantSetting: Sendable {
    /// The settings page's groups, in its order; the CLI's help and the docs table keep it too.
    package enum Group: String, CaseIterable, Sendable {
        case actions, push, qrCodes, powerAuth, webhooks, limits

        /// The group's title.
        package var title: String {
            switch self {
            case .actions: "Actions and challenges"
            case .push: "Push"
            case .qrCodes: "QR codes"
            case .powerAuth: "PowerAuth"
            case .webhooks: "Webhooks"
            case .limits: "Limits"
            }
        }

        /// One line on what the group holds.
        package var summary: String {
            switch self {
            case .actions: "What a tracked action starts as, how long its token and challenges live, what devices are shown."
            case .push: "Push credentials and their approvals; the providers that deliver pushes have their own page."
            case .qrCodes: "QR challenges a page starts with only the tenant ID."
            case .powerAuth: "The PowerAuth factors approvals need, and how activations start."
            case .webhooks: "Where the tenant's backend hears of authenticator events."
            case .limits: "Bounds against push bombing, fraud and guessing."
            }
        }
    }

    /// How a person types the value (the console's control).
    package enum Control: Sendable, Equatable {
        /// A one-line text box; `numeric` asks phones for the number pad.
        case text(numeric: Bool)
        /// One of a few values.
        case choice([String])
        /// One entry per line.
        case lines
    }

    /// The key in the server API's JSON, the stored settings and `--json` (camelCase), e.g. `challengeTimeoutSeconds`.
    package let name: String
    /// The CLI flag, e.g. `--challenge-timeout`.
    package let flag: String
    /// What a person calls it: the console's label, the CLI's text, the docs table.
    package let label: String
    package let group: Group
    /// One sentence on what the setting does.
    package let effect: String
    /// The CLI flag's placeholder, e.g. `SECONDS|none`.
    package let placeholder: String
    /// What may be typed, e.g. "a whole number from 1 to 64".
    package let accepts: String
    package let control: Control
    /// The unit of a number, for the docs table and the schema ("seconds"); nil when it has none.
    package let unit: String?
    /// A CLI flag given several times adds one entry each (action rules), instead of replacing the value.
    package let isRepeatable: Bool
    /// The value's JSON Schema (the server API's, in OpenAPI).
    package let schema: JSONValue

    /// The value as a person types it (the console's control, the CLI flag).
    package let text: @Sendable (TenantSettings) -> String
    /// The value in words where the text does not say it well (a duration in units, "server default"), for the
    /// console and the CLI; nil when the text says it.
    package let words: @Sendable (TenantSettings) -> String?
    /// The value for a person reading the CLI's text: its words, its text, or what no value means.
    package let described: @Sendable (TenantSettings) -> String
    /// The value as JSON: nulls explicit, maps with sorted keys by the writer.
    package let json: @Sendable (TenantSettings) -> JSONValue
    /// Reads typed text over the value (replacing it), naming `name` in a refusal.
    package let readText: @Sendable (String, String, inout TenantSettings) throws -> Void
    /// Reads one CLI flag's text: ``readText`` unless ``isRepeatable``, when it adds or removes one entry.
    package let readFlag: @Sendable (String, String, inout TenantSettings) throws -> Void
    /// Reads a JSON value over the value, naming `name` in a refusal; `checked` false (stored settings, written by
    /// these rules or by tests) checks only the type.
    package let readJSON: @Sendable (JSONValue, String, Bool, inout TenantSettings) throws -> Void

    /// The default value as JSON.
    package var defaultJSON: JSONValue { json(TenantSettings()) }
}

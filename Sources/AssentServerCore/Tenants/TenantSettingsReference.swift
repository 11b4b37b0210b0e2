import Foundation

/// `docs/tenant-settings.md`, written from ``TenantSettings/table`` (a test holds the committed file to it): every
/// setting with its API name, CLI flag, console label, what it accepts, its default and its effect, by group.
package enum TenantSettingsReference {
    /// The document's Markdown.
    package static func markdown() -> String {
        var text = """
            # Tenant settings

            Every setting a tenant has, written from the settings table in the code
            (`Sources/AssentServerCore/Tenants/TenantSettings+Table.swift`); a test fails when this file and the table
            differ (`ASSENT_WRITE_DOCS=1` on that test, `TenantSettingsTableTests`, writes it anew).

            Each is changed in four places that follow the same rules, and nothing changes unless every value given is valid:
            - the server API: `GET /v1/tenant/settings` answers every setting as one JSON object (nulls explicit), and
              `PATCH /v1/tenant/settings` with some of them changes those (a map is replaced whole), authenticated with
              the tenant's secret key like the rest of the server API;
            - `assent admin tenant settings --tenant ID --database DB` with the setting's flag (on the database file);
            - the admin console's settings page (`/admin/settings`), under the setting's label;
            - `--json` on that command prints the same object as the API.

            Push provider credentials are not here: `GET`/`PATCH /v1/tenant/push`, `assent admin tenant push` and the
            console's push page.

            """
        let defaults = TenantSettings()
        for group in TenantSetting.Group.allCases {
            text += "\n## \(group.title)\n\n\(group.summary)\n\n"
            text += "| API name | CLI flag | Console label | Accepts | Default | Effect |\n"
            text += "|---|---|---|---|---|---|\n"
            for setting in TenantSettings.table where setting.group == group {
                let cells = [
                    "`\(setting.name)`", "`\(setting.flag) \(setting.placeholder)`", setting.label, setting.accepts,
                    setting.described(defaults), setting.effect,
                ]
                text += "| " + cells.map { $0.replacingOccurrences(of: "|", with: "\\|") }.joined(separator: " | ") + " |\n"
            }
        }
        return text
    }
}

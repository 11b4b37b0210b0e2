import AssentLog
import AssentServerCore

/// Labelled form controls for the console's settings and push pages: every control has a `<label>`, a sentence on
/// its effect and what it accepts (tied to it with `aria-describedby`), and its error beside it
/// (`aria-invalid`, `role="alert"`). Values are escaped with ``MarkupText/escape(_:)``.
enum ConsoleFormHTML {
    /// How a control is typed.
    enum Kind {
        /// A one-line text box; `numeric` asks for the number pad.
        case text(numeric: Bool)
        /// A select of `options`.
        case choice([String])
        /// A text area of `rows` lines.
        case lines(rows: Int)
        /// A write-only text area for a secret: always empty, so a stored secret is never sent to the browser.
        case secret(rows: Int)
        /// A checkbox, checked when the value is `on`.
        case checkbox
    }

    /// The styles of these pages (besides `/web/console.css`, which every console page loads).
    static let stylesheet = "<link rel=\"stylesheet\" href=\"/web/console-pages.css\">"

    /// A signed-in page of these forms (settings, push providers, audit log): the bar, these pages' stylesheet, and
    /// `main` as the page's `<main>`.
    static func page(
        title: String, current: ConsoleSessions.Current, csrf: String, section: ConsoleSection, main: String
    ) -> String {
        ConsoleHTML.signedInPage(
            title: title, current: current, csrf: csrf, section: section, body: stylesheet + "\n<main>\n" + main + "\n</main>")
    }

    /// One field: label, effect, control, what it accepts, and the error when there is one.
    static func field(
        name: String, label: String, effect: String, accepts: String?, kind: Kind, value: String, error: String?
    ) -> String {
        let e = MarkupText.escape
        var described = ["\(name)-effect"]
        if accepts != nil { described.append("\(name)-accepts") }
        if error != nil { described.append("\(name)-error") }
        var attributes = "id=\"\(e(name))\" name=\"\(e(name))\" aria-describedby=\"\(described.joined(separator: " "))\""
        if error != nil { attributes += " aria-invalid=\"true\"" }
        let control: String = switch kind {
        case .text(let numeric):
            "<input type=\"text\" \(attributes) value=\"\(e(value))\"\(numeric ? " inputmode=\"numeric\"" : "") "
                + "autocomplete=\"off\" maxlength=\"2048\">"
        case .choice(let options):
            "<select \(attributes)>"
                + options.map { "<option\($0 == value ? " selected" : "")>\(e($0))</option>" }.joined()
                + "</select>"
        case .lines(let rows):
            "<textarea \(attributes) rows=\"\(rows)\" spellcheck=\"false\">\(e(value))</textarea>"
        case .secret(let rows):
            "<textarea \(attributes) rows=\"\(rows)\" spellcheck=\"false\" autocomplete=\"off\"></textarea>"
        case .checkbox:
            "<input type=\"checkbox\" \(attributes) value=\"on\"\(value == "on" ? " checked" : "")>"
        }
        let acceptsText = accepts.map { "<p class=\"accepts\" id=\"\(e(name))-accepts\">\(e($0))</p>" } ?? ""
        let errorText = error.map { "<p class=\"field-error\" id=\"\(e(name))-error\" role=\"alert\">\(e($0))</p>" } ?? ""
        if case .checkbox = kind {
            return """
                <div class="field check\(error == nil ? "" : " invalid")">
                \(control) <label for="\(e(name))">\(e(label))</label>
                <p class="effect" id="\(e(name))-effect">\(e(effect))</p>
                \(acceptsText)\(errorText)
                </div>
                """
        }
        return """
            <div class="field\(error == nil ? "" : " invalid")">
            <label for="\(e(name))">\(e(label))</label>
            <p class="effect" id="\(e(name))-effect">\(e(effect))</p>
            \(control)
            \(acceptsText)\(errorText)
            </div>
            """
    }

    /// A notice at the top of a page: `role="status"` for news, `role="alert"` for a refusal.
    static func notice(_ text: String, isError: Bool) -> String {
        "<p class=\"\(isError ? "notice" : "saved")\" id=\"notice\" role=\"\(isError ? "alert" : "status")\">"
            + MarkupText.escape(text) + "</p>"
    }
}

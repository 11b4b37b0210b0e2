import AssentLog
import Testing

/// The one HTML and XML escaping, which the console's pages and the QR code's SVG both use.
@Suite struct MarkupTextTests {
    @Test func `the five markup characters become references and other text stays as it is`() {
        #expect(MarkupText.escape(#"<a href="x">R&D's</a> ünï 😀"#)
            == "&lt;a href=&quot;x&quot;&gt;R&amp;D&#39;s&lt;/a&gt; ünï 😀")
    }

    @Test func `a quote followed by a combining mark is still escaped`() {
        // One Character ("\"" + U+0301) that is not "\"": escaping by Character let it close an attribute.
        #expect(MarkupText.escape("\"\u{301} onfocus=x") == "&quot;\u{301} onfocus=x")
        #expect(MarkupText.escape("<\u{338}") == "&lt;\u{338}")
    }

    @Test func `characters XML forbids become U+FFFD and tab, line feed and carriage return stay`() {
        #expect(MarkupText.escape("a\u{0}b\u{1F}c\u{FFFE}d\u{FFFF}") == "a\u{FFFD}b\u{FFFD}c\u{FFFD}d\u{FFFD}")
        #expect(MarkupText.escape("a\tb\nc\rd") == "a\tb\nc\rd")
    }
}

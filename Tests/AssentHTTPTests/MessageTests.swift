import Foundation
import Testing
@testable import AssentHTTP

@Suite struct MessageTests {
    @Test func queryItemsDecodePercentEscapesButNeverPlus() {
        let request = HTTPRequest(method: "GET", path: "/", rawQuery: "sig=ab+cd%2Bef%3D&empty=&flag&name=caf%C3%A9&bad=%zz&bad=ok&sp%61ce=x%20y")
        #expect(request.queryItem("sig") == "ab+cd+ef=")
        #expect(request.queryItem("empty") == "")
        #expect(request.queryItem("flag") == "")
        #expect(request.queryItem("name") == "café")
        #expect(request.queryItem("bad") == "ok")
        #expect(request.queryItem("space") == "x y")
        #expect(request.queryItem("missing") == nil)
        #expect(HTTPRequest(method: "GET", path: "/").queryItem("sig") == nil)
    }

    @Test func headersAreCaseInsensitiveAndKeepEveryValue() {
        var headers = HTTPHeaders()
        headers.add("Accept", "a")
        headers.add("ACCEPT", "b")
        headers.add("X-Other", "c")
        #expect(headers["accept"] == "a")
        #expect(headers.values(for: "aCcEpT") == ["a", "b"])
        #expect(headers["missing"] == nil)
        #expect(headers.count == 3)
        #expect(headers.map(\.name) == ["Accept", "ACCEPT", "X-Other"])
        headers.replace("accept", "z")
        #expect(headers.values(for: "Accept") == ["z"])
    }

    @Test func jsonResponseHasExactlyTheJSONContentType() {
        let response = HTTPResponse.json(201, Array("{}".utf8))
        #expect(response.status == 201)
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.headers.count == 1)
        #expect(response.body == Array("{}".utf8))
    }

    @Test func errorBodyIsEscapedJSONWithThreeKeys() throws {
        let description = "quote \" backslash \\ newline \n tab \t bell \u{07} é 🔑 </script>"
        let response = HTTPResponse.error(400, code: "bad\"code", description: description)
        #expect(response.headers["Content-Type"] == "application/json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String])
        #expect(object == ["error": "bad\"code", "errorCode": "bad\"code", "errorDescription": description])
        #expect(String(decoding: response.body, as: UTF8.self).hasPrefix(#"{"error":"bad\"code","errorCode":"#))
    }

    @Test func textResponseCarriesItsContentType() {
        let response = HTTPResponse.text(200, "hé", contentType: "text/plain; charset=utf-8")
        #expect(response.headers["content-type"] == "text/plain; charset=utf-8")
        #expect(response.body == Array("hé".utf8))
    }

    @Test(arguments: [
        ("abc", "abc"), ("a%2Fb", "a/b"), ("%41%42", "AB"), ("a+b", "a+b"), ("%2B", "+"), ("%e2%82%ac", "€"), ("", ""),
    ])
    func percentDecodingDecodesOnlyEscapes(_ input: String, _ expected: String) {
        #expect(PercentDecoding.decode(input) == expected)
    }

    @Test(arguments: ["%", "%4", "%G1", "%C3", "%80", "%ED%A0%80"])
    func percentDecodingRejectsInvalidInput(_ input: String) {
        #expect(PercentDecoding.decode(input) == nil)
    }

    @Test func requestIDsAreAcceptedOnlyWhenSane() {
        #expect(RequestID.isAcceptable("abc-DEF_1.2"))
        #expect(RequestID.isAcceptable(String(repeating: "a", count: 128)))
        #expect(!RequestID.isAcceptable(String(repeating: "a", count: 129)))
        #expect(!RequestID.isAcceptable(""))
        #expect(!RequestID.isAcceptable("a b"))
        #expect(!RequestID.isAcceptable("a/b"))
        #expect(!RequestID.isAcceptable("é"))
        #expect(RequestID.resolve(incoming: "keep.me") == "keep.me")
    }

    @Test func generatedRequestIDsAre16RandomHexCharacters() {
        let ids = (0..<100).map { _ in RequestID.generate() }
        for id in ids {
            #expect(id.count == 16)
            #expect(id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
        #expect(Set(ids).count == ids.count)
    }
}

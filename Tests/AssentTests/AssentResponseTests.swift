import Assent
import Testing

@Suite struct AssentResponseTests {
    @Test func `a failure keeps both its description and its code`() {
        let response = AssentResponse<Bool>(error: "A token has not been set.", errorCode: "token_not_set")
        #expect(response.isError && response.data == nil && response.errorCode == "token_not_set")
        #expect(!AssentResponse(data: true).isError)
    }
}

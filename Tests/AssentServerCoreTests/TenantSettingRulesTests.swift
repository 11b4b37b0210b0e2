import AssentCrypto
@testable import AssentServerCore
import AssentWire
import Testing

/// The rules every place a person types a tenant setting follows (the CLI's `tenant settings` and the console's
/// settings page): what each accepts, and that a refusal names the field it was given.
@Suite struct TenantSettingRulesTests {
    typealias Rules = TenantSettingRules

    static func reason<T>(_ body: () throws -> T) -> String? {
        do {
            _ = try body()
            return nil
        } catch let error as AssentError {
            return error.code == .invalidRequest ? error.reason : "wrong code \(error.code)"
        } catch {
            return "not an AssentError"
        }
    }

    @Test func `numbers must be whole and within the setting's range`() throws {
        #expect(try Rules.number("10", "Challenge timeout", Rules.challengeTimeout) == 10)
        #expect(try Rules.number(" 600 ", "Challenge timeout", Rules.challengeTimeout) == 600)
        for bad in ["9", "601", "1.5", "ten", ""] {
            #expect(Self.reason { try Rules.number(bad, "Challenge timeout", Rules.challengeTimeout) }
                == "Challenge timeout must be a whole number from 10 to 600, got '\(bad)'")
        }
        #expect(Self.reason { try Rules.number("0", "--max-failed-attempts", Rules.maxFailedAttempts) }?
            .hasPrefix("--max-failed-attempts must be") == true)
        #expect(try Rules.number("0", "Fraud lock", Rules.fraudLock) == 0)
    }

    @Test func `switches, states and factors take their spellings and refuse the rest`() throws {
        #expect(try Rules.onOff("ON", "x") && !(try Rules.onOff("no", "x")))
        #expect(Self.reason { try Rules.onOff("maybe", "Number matching") } == "Number matching must be on or off, got 'maybe'")
        #expect(try Rules.state("challenge-required", "x") == .challengeRequired)
        #expect(Self.reason { try Rules.state("SOMETIMES", "Unenrolled state") }?.contains("allowed: ALLOW, BLOCK") == true)
        #expect(try Rules.factor("none", "x") == nil)
        #expect(try Rules.factor("possession_biometry", "x") == .possessionBiometry)
        #expect(Self.reason { try Rules.factor("face", "Required approval factor") }?.hasPrefix("Required approval factor") == true)
    }

    @Test func `token lifetime, webhook URL and anonymous actions have their words for the default`() throws {
        #expect(try Rules.tokenLifetime("default", "x") == nil)
        #expect(try Rules.tokenLifetime("3600", "x") == 3600)
        #expect(Self.reason { try Rules.tokenLifetime("29", "Token lifetime") }?.contains("from 30 to 3600") == true)
        #expect(try Rules.webhookURL("none", "x") == nil)
        #expect(try Rules.webhookURL("https://hooks.example.com/a", "x") == "https://hooks.example.com/a")
        for bad in ["ftp://example.com", "example.com", "https://"] {
            #expect(Self.reason { try Rules.webhookURL(bad, "Webhook URL") }?.hasPrefix("Webhook URL must be an http(s) URL") == true)
        }
        #expect(try Rules.pushCredentialLifetime("none", "x") == nil)
        #expect(Self.reason { try Rules.pushCredentialLifetime("59", "x") } != nil)
        #expect(try Rules.anonymousActions("none", "x") == [])
        #expect(try Rules.anonymousActions("signIn, pay:v2", "x") == ["signIn", "pay:v2"])
        #expect(Self.reason { try Rules.anonymousActions("sign in", "Anonymous actions") }?.hasPrefix("Anonymous actions:") == true)
        #expect(Rules.keys(" a, ,b ,") == ["a", "b"])
    }

    @Test func `action rules and approval factor rules split at their last colons`() throws {
        let (action, rule) = try Rules.actionRule("pay:v2:REVIEW_REQUIRED:", "x")
        #expect(action == "pay:v2" && rule == TenantSettings.ActionRule(enrolled: .reviewRequired, unenrolled: nil))
        #expect(Self.reason { try Rules.actionRule("pay:BLOCK", "Action rules") }?.hasPrefix("Action rules must be ACTION:") == true)
        #expect(Self.reason { try Rules.actionRule("pay:NOPE:", "Action rules") }?.contains("for Action rules pay") == true)
        #expect(try Rules.approvalFactorRule("pay:none", "x") == ("pay", nil))
        #expect(try Rules.approvalFactorRule("pay:possession_knowledge", "x") == ("pay", .possessionKnowledge))
        #expect(Self.reason { try Rules.approvalFactorRule("pay", "x") } != nil)
        #expect(Self.reason { try Rules.approvalFactorRule("pay:face", "x") } == "x pay: 'face' is not a PowerAuth signature type or 'none'")
        #expect(Self.reason { try Rules.actionCode(String(repeating: "a", count: 101), "x") } != nil)
    }
}

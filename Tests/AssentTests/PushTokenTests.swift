import Assent
import Foundation
import Testing

/// The APNs device token an app receives as `Data` becomes the lowercase hex string the push documents register.
@Suite struct PushTokenTests {
    @Test func `an APNs device token becomes lowercase hex, two digits a byte`() {
        #expect(PushToken.apns(Data([0x00, 0x0F, 0xA0, 0xFF])) == "000fa0ff")
        let token = Data((0..<32).map { UInt8($0 * 8) })
        let hex = PushToken.apns(token)
        #expect(hex.count == 64)
        #expect(hex == hex.lowercased())
        #expect(hex.hasPrefix("0008101820"))
        #expect(PushToken.hex([]) == "")
    }
}

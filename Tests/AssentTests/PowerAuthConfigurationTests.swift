import Assent
import Testing

/// The biometry options of ``PowerAuthConfiguration`` and their per-platform defaults (biometry-setup.md).
@Suite struct PowerAuthConfigurationTests {
    @Test func `invalidateBiometricFactorAfterChange defaults to true on Android and false on iOS`() {
        let configuration = PowerAuthConfiguration(masterPublicKey: "k")
        #expect(configuration.invalidateBiometricFactorAfterChange == nil)
        #expect(configuration.invalidatesBiometricFactorAfterChange(platform: "android"))
        #expect(!configuration.invalidatesBiometricFactorAfterChange(platform: "ios"))
        #expect(configuration.invalidatesBiometricFactorAfterChange(platform: "linux"), "no document default: the stricter one")
    }

    @Test(arguments: [true, false])
    func `an explicit invalidateBiometricFactorAfterChange applies on every platform`(value: Bool) {
        let configuration = PowerAuthConfiguration(masterPublicKey: "k", invalidateBiometricFactorAfterChange: value)
        for platform in ["android", "ios", "linux"] {
            #expect(configuration.invalidatesBiometricFactorAfterChange(platform: platform) == value)
        }
    }

    @Test func `authenticateOnBiometricKeySetup is true by default and never applies on iOS`() {
        let configuration = PowerAuthConfiguration(masterPublicKey: "k")
        #expect(configuration.authenticateOnBiometricKeySetup)
        #expect(configuration.authenticatesOnBiometricKeySetup(platform: "android"))
        #expect(!configuration.authenticatesOnBiometricKeySetup(platform: "ios"))
        let silent = PowerAuthConfiguration(masterPublicKey: "k", authenticateOnBiometricKeySetup: false)
        #expect(!silent.authenticatesOnBiometricKeySetup(platform: "android"))
    }
}

import Assent
import Testing

/// The biometry options of ``PowerAuthConfiguration`` and how they apply per platform (biometry-setup.md).
@Suite struct PowerAuthConfigurationTests {
    @Test func `authenticateOnBiometricKeySetup is true by default and never applies on iOS`() {
        let configuration = PowerAuthConfiguration(masterPublicKey: "k")
        #expect(configuration.authenticateOnBiometricKeySetup)
        #expect(configuration.authenticatesOnBiometricKeySetup(platform: "android"))
        #expect(!configuration.authenticatesOnBiometricKeySetup(platform: "ios"))
        let silent = PowerAuthConfiguration(masterPublicKey: "k", authenticateOnBiometricKeySetup: false)
        #expect(!silent.authenticatesOnBiometricKeySetup(platform: "android"))
    }
}

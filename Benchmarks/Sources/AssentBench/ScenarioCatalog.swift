/// The scenarios `--scenario` can name. A new scenario file adds its type here.
enum ScenarioCatalog {
    static let all: [any Scenario.Type] = [
        HelloScenario.self,
        TrackScenario.self,
        ValidateScenario.self,
        TrackValidateScenario.self,
        PushFlowScenario.self,
        QRFlowScenario.self,
        SignatureVerifyScenario.self,
        SignatureVerifyLookAheadScenario.self,
    ]

    static func named(_ name: String) -> (any Scenario.Type)? {
        all.first { $0.name == name }
    }

    static var names: [String] { all.map { $0.name } }
}

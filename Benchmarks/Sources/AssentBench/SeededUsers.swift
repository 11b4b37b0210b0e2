import AssentCrypto

/// The users `assent admin seed` made, as one connection sees them with `--seeded-users N`: connection `c` of `C` owns
/// indices `c·N/C ..< (c+1)·N/C` (disjoint slices, so no user ever has two flows at once) and draws one at random for
/// every flow, signing with its device key derived from the seed (``SeededDevice``). Drawing across the whole slice
/// keeps caches from hiding the size of the tables; the key is derived again every flow, so the client's cost per
/// flow is the same whatever N is.
struct SeededUsers: Sendable {
    let seed: String
    let slice: Range<Int>

    /// The slice of `settings`' connection, or nil when the run does not use seeded users.
    init?(_ settings: ScenarioSettings) {
        guard let total = settings.seededUsers else { return nil }
        let connections = max(settings.connections, 1)
        seed = settings.seed
        slice = (settings.connection * total / connections)..<((settings.connection + 1) * total / connections)
    }

    /// A random user of the slice and its device for `credential`.
    func draw(_ credential: SeededDevice.Credential, tenantID: String) throws(BenchError) -> (userID: String, device: PushFlowScenario.Device) {
        let index = Int.random(in: slice)
        do {
            let key = try SeededDevice.privateKey(seed: seed, index: index, credential: credential)
            return (SeededDevice.userID(index), PushFlowScenario.Device(tenantID: tenantID, key: key))
        } catch {
            throw BenchError(.setupFailed, label: "key derivation failed", reason: "seeded key derivation failed: \(error)")
        }
    }
}

import Foundation

/// `assent admin seed`'s progress bar: one line on stderr, redrawn in place, only when stderr is a terminal.
struct SeedProgress: Sendable {
    let total: Int
    let enabled: Bool
    private let started = Date()

    init(total: Int, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    /// Redraws the bar for `done` users written.
    func show(_ done: Int) {
        guard enabled else { return }
        let width = 30
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        let filled = Int(fraction * Double(width))
        let elapsed = Date().timeIntervalSince(started)
        let rate = elapsed > 0 ? Int(Double(done) / elapsed) : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = "\r[\(bar)] \(done)/\(total) users, \(rate) users/s"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Draws the full bar and ends its line.
    func finish(_ done: Int) {
        guard enabled else { return }
        show(done)
        FileHandle.standardError.write(Data("\n".utf8))
    }
}

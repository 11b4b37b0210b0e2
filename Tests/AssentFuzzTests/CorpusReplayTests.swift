import Foundation
import Testing

@testable import AssentFuzz

/// The seed corpus of every fuzz target (`Tests/Fuzz/Corpus/<target>/`), fed through the same function libFuzzer
/// calls, in an ordinary build: a finding once fixed stays fixed, and `make test` needs no fuzzing build.
@Suite struct CorpusReplayTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus")

    @Test(arguments: FuzzTarget.all.map(\.name))
    func everySeedRuns(target name: String) throws {
        let target = try #require(FuzzTarget.named(name))
        let files = try FuzzCorpus.files(at: Self.corpus.appendingPathComponent(name))
        #expect(files.count >= 3, "a seed corpus of a few valid and near-valid inputs")
        for file in files {
            target.run(Array(try Data(contentsOf: file)))
        }
    }

    @Test func everyCorpusFolderIsATarget() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).sorted()
        #expect(folders == FuzzTarget.all.map(\.name).sorted())
    }
}

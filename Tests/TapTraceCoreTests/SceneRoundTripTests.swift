import Foundation
import TapTraceFormats
@testable import TapTraceCore
import TapTraceJSON
import Testing

/// Decoding what `SceneEncoder` writes gives back the same scene, for every conformance scene.
struct SceneRoundTripTests {
    @Test(arguments: ConformanceTests.caseNames)
    func roundTrip(_ name: String) throws {
        let bytes = Array(try Data(contentsOf: ConformanceTests.folder.appendingPathComponent(name)))
        let tape = try JSONTape(parsing: bytes)
        let sceneNode = ConformanceChecker.member(tape, tape.root, "scene")!
        let scene = try InputDecoder.scene(Array(tape.rawBytes(sceneNode)))
        let encoded = SceneEncoder.encode(scene)
        let again = try InputDecoder.scene(encoded)
        #expect(again == scene)
        #expect(SceneEncoder.encode(again) == encoded)
    }
}

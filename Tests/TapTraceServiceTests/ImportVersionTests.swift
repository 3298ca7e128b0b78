import TestSupport
import Foundation
import Testing

/// A re-capture as the next version of a scene (issue 30, items 1, 2 and 4): ids that survive a
/// relaunch, so replaying old runs on a new capture reports only what moved.
@Suite struct ImportVersionTests {
    static let text = [("Content-Type", "text/plain")]

    /// recursiveDescription_07: a button "Button" at (164.5 318.5; 46 30) in a 375×667 view,
    /// a label at (166.5 110; 42 20.5).
    static func dump(_ edit: (String) -> String = { $0 }) throws -> [UInt8] {
        let text = String(decoding: try ImportEndpointTests.fixture("recursiveDescription_07_hongmhoon_joint.txt"), as: UTF8.self)
        return Array(edit(text).utf8)
    }

    /// The same screen after a relaunch: every address is new.
    static func relaunched(_ text: String) -> String {
        text.replacingOccurrences(of: "0x7fc94b", with: "0x7fbb11")
    }

    static var tapOnButton: [String: Any] { ["touches": ["format": "taptrace/touches@1", "gestures": [["tap": [187, 333], "t": 0]]]] }

    /// Stores v1 with a tap on the button, then v2 from `second`, and replays v1's run on v2.
    func replay(second: [UInt8], ids: String = "stable") throws -> (replay: [String: Any], firstResponder: String?) {
        var result: ([String: Any], String?) = ([:], nil)
        try withServer { server in
            let client = try server.client()
            let v1 = try client.call("POST", "/v1/import/recursive-description?name=Detail&ids=\(ids)", body: try Self.dump(), headers: Self.text)
            #expect(v1.status == 201)
            let id = try #require(try v1.object().string("id"))
            let run = try client.call("POST", "/v1/scenes/\(id)/dispatch", json: Self.tapOnButton)
            #expect(run.status == 201)
            let firstResponder = try run.object().object("firstResponder")?.string("id")
            let v2 = try client.call("POST", "/v1/import/recursive-description?scene=\(id)&ids=\(ids)", body: second,
                                     headers: Self.text + [("If-Match", "\"1\"")])
            #expect(v2.status == 200)
            let body = try v2.object()
            #expect(body.int("version") == 2)
            #expect(body.string("name") == "Detail")   // the scene keeps its name
            #expect(body.string("format") == "recursive-description")
            #expect(v2.header("ETag") == "\"2\"")
            let replay = try client.call("POST", "/v1/scenes/\(id)/replay", json: ["from": 1, "to": 2])
            #expect(replay.status == 200 || replay.status == 201)
            result = (try replay.object(), firstResponder)
        }
        return result
    }

    @Test func relaunchAndAnUnrelatedMoveChangeNothing() throws {
        let second = try Self.dump { Self.relaunched($0).replacingOccurrences(of: "frame = (166.5 110;", with: "frame = (176.5 110;") }
        let (replay, firstResponder) = try replay(second: second)
        #expect(firstResponder == "UIButton:Button")
        #expect(replay.int("count") == 1)
        #expect(replay.int("changedCount") == 0)
    }

    @Test func movingTheTappedButtonIsTheChangeReported() throws {
        let second = try Self.dump { Self.relaunched($0).replacingOccurrences(of: "frame = (164.5 318.5;", with: "frame = (10 600;") }
        let (replay, _) = try replay(second: second)
        #expect(replay.int("changedCount") == 1)
        let differences = (replay.array("runs").first?["differences"] as? [Any]).map { "\($0)" } ?? ""
        #expect(differences.contains("firstResponder"))
    }

    /// With address ids a relaunch is "everything changed": what stable ids are for.
    @Test func addressIdsSeeARelaunchAsAChange() throws {
        let (replay, firstResponder) = try replay(second: try Self.dump(Self.relaunched), ids: "address")
        #expect(firstResponder == "UIButton-0x7fc94b63b7c0")
        #expect(replay.int("changedCount") == 1)
    }

    @Test func nextVersionPreconditionsAndErrors() throws {
        try withServer { server in
            let client = try server.client()
            let v1 = try client.call("POST", "/v1/import?store=true", body: try Self.dump(), headers: Self.text)
            #expect(v1.status == 201)
            let id = try #require(try v1.object().string("id"))
            // A stale If-Match stores nothing.
            try client.call("POST", "/v1/import?scene=\(id)", body: try Self.dump(), headers: Self.text + [("If-Match", "\"7\"")]).problem(409)
            try client.call("POST", "/v1/import?scene=scn_doesnotexist", body: try Self.dump(), headers: Self.text).problem(404)
            // A malformed dump for an existing scene: 422, nothing stored.
            try client.call("POST", "/v1/import/recursive-description?scene=\(id)", body: Array("<UIView: 0x1; frame = (0 0".utf8), headers: Self.text).problem(422)
            #expect(try client.call("GET", "/v1/scenes/\(id)/versions").object().array("items").count == 1)
            // ?name= renames on the next version.
            let v2 = try client.call("POST", "/v1/import?scene=\(id)&name=Renamed", body: try Self.dump(), headers: Self.text)
            #expect(v2.status == 200)
            #expect(try v2.object().string("name") == "Renamed")
            try client.call("POST", "/v1/import?name=", body: try Self.dump(), headers: Self.text).problem(400)
            try client.call("POST", "/v1/import?ids=pointer", body: try Self.dump(), headers: Self.text).problem(400)
        }
    }

    /// One door: the format is recognised and named; any dump media type is accepted.
    @Test func autoDetectionAndMediaTypes() throws {
        try withServer { server in
            let client = try server.client()
            let xml = try ImportEndpointTests.fixture("appium_pagesource_01_shirates-core_XmlDataIos_iOS1.txt")
            for type in ["application/xml", "text/xml", "application/octet-stream", "application/x-www-form-urlencoded", "text/plain"] {
                let r = try client.call("POST", "/v1/import", body: xml, headers: [("Content-Type", type)])
                #expect(r.status == 200, "\(type)")
                #expect(try r.object().string("format") == "appium")
            }
            let rd = try client.call("POST", "/v1/import", body: try Self.dump(), headers: [("Content-Type", "application/x-www-form-urlencoded")])
            #expect(try rd.object().string("format") == "recursive-description")
            try client.call("POST", "/v1/import", body: try Self.dump(), headers: RawHTTPClient.json).problem(415)
            // Not a dump at all: located at its first line.
            let unknown = try client.call("POST", "/v1/import", body: Array("# a note\nhello\n".utf8), headers: Self.text).problem(422)
            #expect(unknown["line"] as? Int == 2 && unknown["column"] as? Int == 1)
            // The wrong importer names the right one.
            let wrong = try client.call("POST", "/v1/import/recursive-description", body: xml, headers: Self.text).problem(422)
            #expect((wrong["detail"] as? String)?.contains("/v1/import/appium") == true)
        }
    }
}

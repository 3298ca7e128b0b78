import Foundation
import Testing

/// `taptrace why` and `dispatch --text --rules` (issue 31, item 4), on examples/.
extension CLITests {
    @Test func whyAnswersAsJSONAndText() throws {
        let request = CLITests.example("checkout.request.json")
        let json = try run(["why", request, "--recognizer", "cardTap"])
        #expect(json.status == 0)
        #expect(json.stdout.hasPrefix(#"{"question":"Why did recognizer cardTap end as it did?","answer":"#))
        #expect(json.stdout.contains(#""changes":[]"#))
        let text = try run(["why", request, "--recognizer", "cardTap", "--text"])
        #expect(text.status == 0 && text.stdout.hasPrefix("Why did recognizer cardTap end as it did?\n"))
        #expect(text.stdout.contains("1. ["))
        let expecting = try run(["why", request, "--action", "buyTapped:", "--expect", "not-fired"])
        #expect(expecting.status == 0 && expecting.stdout.contains(#""verified":true"#))
        // The same request, the same bytes.
        #expect(try run(["why", request, "--action", "buyTapped:", "--expect", "not-fired"]).stdout == expecting.stdout)
    }

    @Test func whyRefusals() throws {
        let request = CLITests.example("checkout.request.json")
        let none = try run(["why", request])
        #expect(none.status != 0 && none.stderr.contains("Ask one question"))
        let two = try run(["why", request, "--view", "title", "--first-responder"])
        #expect(two.status != 0 && two.stdout.isEmpty)
        let unknown = try run(["why", request, "--view", "nope"])
        #expect(unknown.status == 2 && unknown.stderr.contains(#""pointer": "/view""#))
        let misfit = try run(["why", request, "--first-responder", "--expect", "hit"])
        #expect(misfit.status == 2 && misfit.stderr.contains(#""pointer": "/expect""#))
        // The question belongs on the command line, not in the request.
        var body = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: request))) as! [String: Any]
        body["view"] = "title"
        let inBody = try run(["why", "-", "--view", "title"], stdin: String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self))
        #expect(inBody.status == 2 && inBody.stderr.contains(#""pointer": "/view""#))
    }

    @Test func dispatchTextWithRules() throws {
        let r = try run(["dispatch", CLITests.example("checkout.request.json"), "--text", "--rules"])
        #expect(r.status == 0)
        #expect(r.stdout.contains("#0  W -> hitTest:withEvent: (100, 332) → buyButton [H1]"))
        #expect(r.stdout.contains("[GS7]"))
    }
}

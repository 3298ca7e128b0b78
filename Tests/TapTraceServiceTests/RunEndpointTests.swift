import Foundation
import Testing

/// History, stored runs in their three formats, compare and replay.
@Suite struct RunEndpointTests {
    @Test func historyIsNewestFirstAndStableUnderInserts() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            var runs: [String] = []
            for _ in 0..<5 { runs.append(try client.storeDispatch(id).string("id")!) }
            let first = try client.call("GET", "/v1/scenes/\(id)/runs?limit=2").object()
            let items = first.array("items")
            #expect(items.map { $0.string("id")! } == [runs[4], runs[3]])
            #expect(items[0].object("firstResponder")?.string("id") == "buyButton")
            #expect(items[0].object("firstResponder")?.string("class") == "CheckoutButton")
            #expect(items[0].int("actionCount") == 1)
            #expect(items[0].array("actions").first?.string("action") == "buyTapped:")
            #expect(items[0].array("actions").first?.string("target") == "checkoutVC")
            #expect(items[0].string("outcome")?.hasPrefix("o1:") == true)
            #expect(Set(items.map { $0.string("outcome") }).count == 1)
            let cursor = try #require(first.string("nextCursor"))
            // Runs stored after the first page do not shift later pages.
            _ = try client.storeDispatch(id)
            _ = try client.storeDispatch(id)
            let second = try client.call("GET", "/v1/scenes/\(id)/runs?limit=2&cursor=\(cursor)").object()
            #expect(second.array("items").map { $0.string("id")! } == [runs[2], runs[1]])
            #expect(try client.allItems("/v1/scenes/\(id)/runs", limit: 3).count == 7)
            try client.call("GET", "/v1/scenes/\(id)/runs?cursor=\(cursor)x").problem(400)
            try client.call("GET", "/v1/scenes/scn_aaaaaaaaaaaa/runs").problem(404)
        }
    }

    @Test func aRunReadsAsJSONTextAndChromeTrace() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let dispatched = try client.storeDispatch(id)
            let runID = try #require(dispatched.string("id"))

            let run = try client.call("GET", "/v1/runs/\(runID)").object()
            #expect(run.string("id") == runID)
            #expect(run.string("sceneId") == id)
            #expect(run.int("sceneVersion") == 1)
            let request = try #require(run.object("request"))
            #expect(NSDictionary(dictionary: request).isEqual(to: try Fixtures.storedDispatchBody() as! [String: Any]))
            #expect(NSDictionary(dictionary: run).isEqual(to: dispatched))

            let text = try client.call("GET", "/v1/runs/\(runID)?format=text")
            #expect(text.status == 200)
            #expect(text.header("Content-Type") == "text/plain; charset=utf-8")
            #expect(text.bodyText.contains("firstResponder: buyButton"))
            #expect(text.bodyText.contains("buyButton -> touchesBegan:withEvent:"))
            let swift = try client.call("GET", "/v1/runs/\(runID)?format=text&names=swift").bodyText
            #expect(swift.contains("buyButton -> touchesBegan(_:with:)"))

            let chrome = try client.call("GET", "/v1/runs/\(runID)?format=chrome")
            #expect(chrome.status == 200)
            let trace = try chrome.object()
            #expect(trace.string("displayTimeUnit") == "ms")
            let events = trace.array("traceEvents")
            #expect(events.contains { $0.string("ph") == "X" && $0.string("name") == "buyButton -> touchesBegan:withEvent:" })
            #expect(events.contains { $0.string("ph") == "M" && $0.object("args")?.string("name") == "touch T1" })
            #expect(events.contains { $0.string("ph") == "M" && $0.object("args")?.string("name") == "cardTap (UITapGestureRecognizer)" })

            try client.call("GET", "/v1/runs/\(runID)?format=xml").problem(400)
            try client.call("GET", "/v1/runs/\(runID)?format=text&names=klingon").problem(400)
            try client.call("GET", "/v1/runs/run_aaaaaaaaaaaa").problem(404)
            try client.call("GET", "/v1/runs/whatever").problem(404)
        }
    }

    @Test func compareNamesWhatChangedBetweenLayouts() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let before = try client.storeDispatch(id).string("id")!
            let same = try client.storeDispatch(id).string("id")!
            _ = try client.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutV2Scene())
            let after = try client.storeDispatch(id).string("id")!

            let identical = try client.call("GET", "/v1/runs/\(before)/compare/\(same)").object()
            #expect(identical["identical"] as? Bool == true)
            #expect(identical.array("differences").isEmpty)

            let response = try client.call("GET", "/v1/runs/\(before)/compare/\(after)")
            #expect(response.status == 200)
            let comparison = try response.object()
            #expect(comparison.object("a")?.string("id") == before)
            #expect(comparison.object("b")?.int("sceneVersion") == 2)
            #expect(comparison["identical"] as? Bool == false)
            #expect(comparison["outcomeChanged"] as? Bool == true)
            let fields = comparison.array("differences").map { $0.string("field")! }
            #expect(fields.contains("firstResponder"))
            #expect(fields.contains("responderChain"))
            #expect(fields.contains("touches[T1].hitTestView"))
            #expect(fields.contains("recognizers[cardTap].states"))
            #expect(fields.contains("actions"))
            let firstResponder = comparison.array("differences").first { $0.string("field") == "firstResponder" }
            #expect(firstResponder?.string("before") == "buyButton (CheckoutButton)")
            #expect(firstResponder?.string("after") == "card (ProductCardView)")
            let trace = try #require(comparison.object("trace"))
            #expect(trace.array("removed").contains { $0.string("entry")?.contains("buyButton -> touchesBegan:withEvent:") == true })
            #expect(trace.array("inserted").contains { $0.string("entry")?.contains("checkoutVC -> cardTapped:") == true })
            #expect(trace.array("script").contains { $0.string("op") == "equal" })
            try client.call("GET", "/v1/runs/\(before)/compare/run_aaaaaaaaaaaa").problem(404)
        }
    }

    @Test func replayRerunsVersionNAgainstVersionMAndStoresTheRuns() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let originals = [try client.storeDispatch(id), try client.storeDispatch(id)].map { $0.string("id")! }
            _ = try client.call("PUT", "/v1/scenes/\(id)", body: try Fixtures.checkoutV2Scene())

            let response = try client.call("POST", "/v1/scenes/\(id)/replay", json: ["from": 1, "to": 2])
            #expect(response.status == 200)
            let report = try response.object()
            #expect(report.int("from") == 1)
            #expect(report.int("to") == 2)
            #expect(report.int("count") == 2)
            #expect(report.int("changedCount") == 2)
            let items = report.array("runs")
            #expect(items.map { $0.string("original")! } == originals)
            for item in items {
                #expect(item["changed"] as? Bool == true)
                let fields = item.array("differences").map { $0.string("field")! }
                #expect(fields.contains("firstResponder"))
                #expect(item.array("differences").allSatisfy { ($0.string("text") ?? "").contains(":") })
                // The replayed run is stored against version 2 and reads back.
                let replayed = try client.call("GET", "/v1/runs/\(item.string("replayed")!)").object()
                #expect(replayed.int("sceneVersion") == 2)
                #expect(replayed.object("firstResponder")?.string("id") == "card")
            }
            #expect(try client.allItems("/v1/scenes/\(id)/runs", limit: 10).count == 4)

            // Replaying onto the same layout changes nothing.
            let unchanged = try client.call("POST", "/v1/scenes/\(id)/replay", json: ["from": 1, "to": 1]).object()
            #expect(unchanged.int("changedCount") == 0)
            #expect(unchanged.array("runs").allSatisfy { $0.array("differences").isEmpty })

            // A missing version is a 422 at its pointer, and nothing is stored.
            let before = try client.allItems("/v1/scenes/\(id)/runs", limit: 10).count
            let missingTo = try client.call("POST", "/v1/scenes/\(id)/replay", json: ["from": 1, "to": 5])
            try missingTo.problem(422)
            #expect(try missingTo.pointers() == ["/to"])
            let missingFrom = try client.call("POST", "/v1/scenes/\(id)/replay", json: ["from": 5, "to": 1])
            #expect(try missingFrom.pointers() == ["/from"])
            let bad = try client.call("POST", "/v1/scenes/\(id)/replay", json: ["from": 0])
            try bad.problem(422)
            #expect(Set(try bad.pointers()) == ["/from", "/to"])
            #expect(try client.allItems("/v1/scenes/\(id)/runs", limit: 10).count == before)
            try client.call("POST", "/v1/scenes/scn_aaaaaaaaaaaa/replay", json: ["from": 1, "to": 1]).problem(404)
        }
    }

    @Test func deletingASceneRemovesItsRuns() throws {
        try withServer { server in
            let client = try server.client()
            let id = try client.createScene(try Fixtures.checkoutScene())
            let run = try client.storeDispatch(id).string("id")!
            #expect(try client.call("DELETE", "/v1/scenes/\(id)").status == 204)
            try client.call("GET", "/v1/runs/\(run)").problem(404)
            try client.call("GET", "/v1/scenes/\(id)/runs").problem(404)
            try client.call("POST", "/v1/scenes/\(id)/dispatch", json: try Fixtures.storedDispatchBody()).problem(404)
        }
    }
}

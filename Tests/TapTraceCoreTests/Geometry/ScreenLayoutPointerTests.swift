import TapTraceFormats
@testable import TapTraceCore
import TapTraceJSON
import Testing

/// The geometry's `pointer` per view: where the view is in the scene document, the same as the
/// validator's pointers, so that a client can edit the view by JSON Patch knowing its id.
struct ScreenLayoutPointerTests {
    /// Each view's id and pointer as the geometry JSON gives them.
    static func pointers(_ layout: ScreenLayout) throws -> [(id: String, pointer: String)] {
        let tape = try JSONTape(parsing: layout.json())
        let views = try #require(tape.member(tape.root, "views"))
        return tape.elements(views).map { view in
            (tape.string(tape.member(view, "id")!)!, tape.string(tape.member(view, "pointer")!)!)
        }
    }

    @Test func everyViewsPointerIsTheValidatorsPointer() throws {
        let layout = try ScreenLayoutTests.layout(ScreenLayoutTests.nested)
        let listed = try Self.pointers(layout)
        #expect(listed.count == layout.index.viewCount)
        for (id, pointer) in listed {
            let v = try #require(layout.index.view(withId: id))
            #expect(pointer == SceneValidator.pointer(ofView: v, in: layout.index.scene), "\(id)")
        }
        #expect(listed.map(\.pointer) == ["/windows/0", "/windows/0/subviews/0", "/windows/0/subviews/0/subviews/0",
                                          "/windows/0/subviews/1", "/windows/0/subviews/2",
                                          "/windows/0/subviews/2/subviews/0", "/windows/1", "/windows/2"])
    }

    /// A scene built in code may add a view's subviews after its siblings (not in document
    /// order); each pointer is still its own.
    @Test func viewsAddedOutOfDocumentOrderGetTheirOwnPointers() throws {
        func view(_ id: String, _ base: ViewBase = .UIView) -> ViewSpec {
            var spec = ViewSpec(id: id, className: base.rawValue, base: base)
            spec.frame = Rect(0, 0, 10, 10)
            return spec
        }
        var scene = Scene()
        let w = scene.add(view("W", .UIWindow), to: nil)
        let a = scene.add(view("a"), to: w)
        let b = scene.add(view("b"), to: w)
        scene.add(view("a0"), to: a)
        scene.add(view("b0"), to: b)
        scene.add(view("a1"), to: a)
        let listed = try Self.pointers(ScreenLayout(try SceneIndex(validating: scene)))
        #expect(listed.map(\.id) == ["W", "a", "b", "a0", "b0", "a1"])
        #expect(listed.map(\.pointer) == ["/windows/0", "/windows/0/subviews/0", "/windows/0/subviews/1",
                                          "/windows/0/subviews/0/subviews/0", "/windows/0/subviews/1/subviews/0",
                                          "/windows/0/subviews/0/subviews/1"])
    }
}

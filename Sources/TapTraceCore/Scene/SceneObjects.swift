/// An object a trace entry names (a receiver, an argument, a result) by number: an object of
/// the scene (`SceneObjects`: views by view index, then recognizers, view controllers, the
/// application, its delegate, the window scene, delegate objects), one the recorder keeps a
/// ref of itself (numbers below -1: `TraceRecorder`'s objects named by ref), or none.
package struct TraceObject: Sendable, Equatable {
    package let raw: Int32

    static let none = TraceObject(raw: -1)
    init(raw: Int32) { self.raw = raw }
    init(view v: Int) { raw = Int32(v) }
}

/// The objects of a scene that a trace can name, numbered: views by view index, then the
/// others in order. Immutable once built with the index and shared by every run against it;
/// a recorder names objects by these numbers, so that a trace entry holds no reference count.
package final class SceneObjects: Sendable {
    let viewRefs: [ObjectRef]
    let otherRefs: [ObjectRef]

    static let empty = SceneObjects(views: [], others: [])

    init(views: [ObjectRef], others: [ObjectRef]) {
        viewRefs = views
        otherRefs = others
    }

    /// How many objects there are (views and others).
    package var count: Int { viewRefs.count + otherRefs.count }

    package func ref(_ k: Int) -> ObjectRef { k < viewRefs.count ? viewRefs[k] : otherRefs[k - viewRefs.count] }
}

/// The pieces of a pasted debugger session: the view hierarchy, and the add-ons pasted after it
/// (`_printHierarchy`, recognizer descriptions, `allTargets`).
struct DumpSections {
    /// Byte ranges of the input that hold the view hierarchy, in order.
    var hierarchy: [Range<Int>]

    init(_ src: SourceText) throws(ImportError) {
        hierarchy = [src.contentStart..<src.count]
    }

    /// Joins the add-ons to the views of `draft` by address.
    func join(into draft: inout ImportDraft) throws(ImportError) {}
}

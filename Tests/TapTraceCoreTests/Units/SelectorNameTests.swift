import TapTraceCore
import Testing

/// The Swift spelling of an Objective-C selector (contract §5.1).
struct SelectorNameTests {
    @Test(arguments: [("hitTest:withEvent:", "hitTest(_:with:)"), ("pointInside:withEvent:", "point(inside:with:)"),
                      ("buttonTapped:", "buttonTapped(_:)"), ("buttonTapped:forEvent:", "buttonTapped(_:forEvent:)"),
                      ("refresh", "refresh()"), ("touchesShouldCancelInContentView:", "touchesShouldCancel(in:)")])
    func swiftSpelling(_ objc: String, _ swift: String) {
        #expect(SelectorNames.swift(objc) == swift)
    }

    /// ASCII selectors are spelled byte by byte, others through substrings: the same rule
    /// (the part after the last colon is dropped, empty labels kept).
    @Test(arguments: [("a:b", "a(_:)"), ("a::", "a(_::)"), (":", "(_:)"), ("a:b:c", "a(_:b:)"),
                      ("tappé:avec:", "tappé(_:avec:)"), ("é", "é()"), ("x:\u{301}y:", "x:\u{301}y(_:)")])
    func swiftSpellingOfUnusualSelectors(_ objc: String, _ swift: String) {
        #expect(SelectorNames.swift(objc) == swift)
    }
}

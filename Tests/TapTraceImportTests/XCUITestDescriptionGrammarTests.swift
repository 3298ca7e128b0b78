import Testing
import TapTraceCore
@testable import TapTraceImport

/// The grammar of XCUITest `debugDescription` lines and sections, one edge case at a time, and
/// how its elements become views.
struct XCUITestDescriptionGrammarTests {
    // MARK: values

    @Test func quotesAndCommasInsideIdentifiersAndLabels() throws {
        let s = try Imported.xcuitest("""
        Element subtree:
         →Window (Main), 0x1, {{0.0, 0.0}, {100.0, 200.0}}
            Button, 0x2, {{10.0, 20.0}, {50.0, 30.0}}, identifier: 'buy, now', label: 'It's 'quoted', with commas, and: colons'
            StaticText, 0x3, {{0.0, 60.0}, {100.0, 20.0}}, identifier: 'x', label: 'Tap, Selected'
            TextField, 0x4, {{0.0, 80.0}, {100.0, 20.0}}, placeholderValue: 'Name, please', value: it's, 1, 2, Keyboard Focused
            Button, 0x5, {{0.0, 100.0}, {10.0, 10.0}}, identifier: '', label: ' '
        """)
        let buy = try s.view("XCUIElementTypeButton-0x2")
        #expect(buy.accessibilityIdentifier == "buy, now")
        #expect(buy.label == "It's 'quoted', with commas, and: colons")
        #expect(try s.view("XCUIElementTypeStaticText-0x3").label == "Tap, Selected")
        // The placeholder labels a field without a label; the value runs up to the flag.
        let field = try s.view("XCUIElementTypeTextField-0x4")
        #expect(field.label == "Name, please")
        #expect(field.base == .UITextField)
        #expect(s.scene.app?.focusedResponder == "XCUIElementTypeTextField-0x4")
        // Blank identifiers and labels say nothing.
        #expect(try s.view("XCUIElementTypeButton-0x5").label == nil)
        #expect(try s.view("XCUIElementTypeButton-0x5").accessibilityIdentifier == nil)
        #expect(s.hasWarning("attributes ignored (no effect on hit-testing, or not modelled): value"))
        // Stable ids come from the identifier, else class and label.
        let stable = try Imported.xcuitest("""
        Element subtree:
         →Window (Main), 0x1, {{0.0, 0.0}, {100.0, 200.0}}
            Button, 0x2, {{10.0, 20.0}, {50.0, 30.0}}, identifier: 'buy, now', label: 'Buy'
            Button, 0x3, {{10.0, 60.0}, {50.0, 30.0}}, label: 'Cancel'
            TextField, 0x4, {{0.0, 80.0}, {100.0, 20.0}}, Keyboard Focused
        """, ids: .stable)
        #expect(stable.scene.views.map(\.id) == ["Window", "buy, now", "Button:Cancel", "Window/TextField"])
        #expect(stable.scene.app?.focusedResponder == "Window/TextField")
    }

    @Test func disabledSelectedAndOtherAttributes() throws {
        let s = try Imported.xcuitest("""
        Element subtree:
         →Window (Main), 0x1, {{0.0, 0.0}, {100.0, 100.0}}
            Button, 0x2, {{0.0, 0.0}, {50.0, 50.0}}, label: 'Pay', Disabled
            Button, 0x3, {{50.0, 0.0}, {50.0, 50.0}}, label: 'Tab', Selected, hitPoint: {75.0, 25.0}, activationBundleId: com.example.app
            StaticText, 0x4, {{0.0, 50.0}, {50.0, 50.0}}, label: 'Note', Disabled, Hittable
        """)
        #expect(try s.view("XCUIElementTypeButton-0x2").enabled == false)
        #expect(try s.view("XCUIElementTypeButton-0x3").enabled == nil)
        #expect(try s.view("XCUIElementTypeButton-0x3").label == "Tab")
        #expect(try s.view("XCUIElementTypeStaticText-0x4").enabled == nil)
        // A disabled control is still hit-tested (H13); a label is not interactive.
        #expect(s.hit(25, 25) == "XCUIElementTypeButton-0x2")
        #expect(s.hit(75, 25) == "XCUIElementTypeButton-0x3")
        #expect(s.hit(25, 75) == "XCUIElementTypeWindow-0x1")
        #expect(s.hasWarning("Disabled on elements that are not controls has no effect here: XCUIElementTypeStaticText-0x4"))
        #expect(s.warnings.last == "attributes ignored (no effect on hit-testing, or not modelled): Selected, hitPoint, activationBundleId, Hittable")
    }

    @Test func labelsAndValuesOverSeveralLines() throws {
        let s = try Imported.xcuitest("""
        Element subtree:
         →Window (Main), 0x1, {{0.0, 0.0}, {100.0, 100.0}}
            StaticText, 0x2, {{0.0, 0.0}, {100.0, 40.0}}, label: 'Line one
        Line two, Selected', Selected
            TextView, 0x3, {{0.0, 40.0}, {100.0, 40.0}}, label: 'Notes', value: first line
        second line, and: more
            Button, 0x4, {{0.0, 80.0}, {100.0, 20.0}}, label: 'After'
        """)
        #expect(try s.view("XCUIElementTypeStaticText-0x2").label == "Line one\nLine two, Selected")
        #expect(try s.view("XCUIElementTypeTextView-0x3").label == "Notes")
        #expect(try s.view("XCUIElementTypeButton-0x4").frame == Rect(0, 80, 100, 20))
        #expect(try s.view("XCUIElementTypeWindow-0x1").subviews.count == 3)
        let crlf = try Imported.xcuitest("Element subtree:\r\n →Window (Main), 0x1, {{0.0, 0.0}, {10.0, 10.0}}, label: 'a\r\nb'\r\n")
        #expect(try crlf.view("XCUIElementTypeWindow-0x1").label == "a\nb")
    }

    // MARK: the tree

    @Test func nestedDepthRelativeFramesAndWindows() throws {
        let s = try Imported.xcuitest("""
        Attributes: Application, 0x10, pid: 42, label: 'Shop'
        Element subtree:
         →Application, 0x10, pid: 42, label: 'Shop'
            Window (Main), 0x11, {{0.0, 0.0}, {300.0, 600.0}}
              Other, 0x12, {{10.0, 100.0}, {280.0, 400.0}}
                Table, 0x13, {{10.0, 100.0}, {280.0, 200.0}}
                  Cell, 0x14, {{10.0, 100.0}, {280.0, 44.0}}
                    StaticText, 0x15, {{26.0, 112.0}, {200.0, 20.0}}, label: 'Row 1'
                CollectionView, 0x16, {{10.0, 300.0}, {280.0, 200.0}}
                  Cell, 0x17, {{20.0, 310.0}, {100.0, 100.0}}
                    Switch, 0x18, {{30.0, 320.0}, {51.0, 31.0}}, label: 'Wi-Fi', value: 1
            Window, 0x19, {{0.0, 0.0}, {300.0, 600.0}}
              StatusBar, 0x1a, {{0.0, 0.0}, {300.0, 20.0}}
                Other, 0x1b, {{0.0, 0.0}, {300.0, 20.0}}
        Path to element:
         →Application, 0x10, pid: 42, label: 'Shop'
        Query chain:
         →Find: Application 'com.example.shop'
          Output: {
            Application, 0x10, pid: 42, label: 'Shop'
          }
        """)
        #expect(s.scene.name == "XCUITest debugDescription: Shop")
        #expect(s.scene.windows.map { s.scene.views[$0].id } == ["XCUIElementTypeWindow-0x11", "XCUIElementTypeWindow-0x19"])
        #expect(s.scene.views.map(\.base) == [.UIWindow, .UIView, .UITableView, .UITableViewCell, .UILabel,
                                              .UICollectionView, .UICollectionViewCell, .UISwitch, .UIWindow, .UIView, .UIView])
        #expect(try s.view("XCUIElementTypeOther-0x12").frame == Rect(10, 100, 280, 400))
        #expect(try s.view("XCUIElementTypeTable-0x13").frame == Rect(0, 0, 280, 200))
        #expect(try s.view("XCUIElementTypeCell-0x14").frame == Rect(0, 0, 280, 44))
        #expect(try s.view("XCUIElementTypeStaticText-0x15").frame == Rect(16, 12, 200, 20))
        #expect(try s.view("XCUIElementTypeCollectionView-0x16").frame == Rect(0, 200, 280, 200))
        #expect(try s.view("XCUIElementTypeCell-0x17").frame == Rect(10, 10, 100, 100))
        #expect(try s.view("XCUIElementTypeSwitch-0x18").frame == Rect(10, 10, 51, 31))
        // The main window is the app's; the other passes touches through outside its elements.
        #expect(try s.view("XCUIElementTypeWindow-0x11").overrides == nil)
        #expect(try s.view("XCUIElementTypeWindow-0x19").overrides?.hitTest == .passThrough)
        #expect(s.hit(150, 10) == "XCUIElementTypeOther-0x1b")
        // The label of a cell is not interactive: the cell takes the touch.
        #expect(s.hit(100, 120) == "XCUIElementTypeCell-0x14")
        #expect(s.hit(45, 335) == "XCUIElementTypeSwitch-0x18")
        #expect(s.hit(150, 450) == "XCUIElementTypeCollectionView-0x16")
        #expect(s.hit(150, 550) == "XCUIElementTypeWindow-0x11")
        #expect(s.hasWarning("windows other than the application's main window"))
        #expect(s.warnings.contains("the Query chain: section was skipped (how XCUITest found the element; it describes no views)"))
        #expect(!s.hasWarning("pid"))
    }

    @Test func aSubtreeOfOneElementSitsInASynthesizedWindow() throws {
        let s = try Imported.xcuitest("""
        Attributes: Button, 0x2, {{20.0, 100.0}, {80.0, 44.0}}, label: 'OK'
        Element subtree:
         →Button, 0x2, {{20.0, 100.0}, {80.0, 44.0}}, label: 'OK'
            StaticText, 0x3, {{30.0, 110.0}, {60.0, 24.0}}, label: 'OK'
        Path to element:
         →Application, 0x1, pid: 7, label: 'Demo'
          ↳Window (Main), 0x4, {{0.0, 0.0}, {390.0, 844.0}}
           ↳Button, 0x2, {{20.0, 100.0}, {80.0, 44.0}}, label: 'OK'
        Query chain:
         →Find: Application 'com.example.demo'
          Output: {
            Application, 0x1, pid: 7, label: 'Demo'
          }
        """)
        // The application is named by the path.
        #expect(s.scene.name == "XCUITest debugDescription: Demo")
        let window = try s.view("window")
        #expect(window.frame == Rect(20, 100, 80, 44))
        #expect(window.bounds == Rect(20, 100, 80, 44))
        #expect(try s.view("XCUIElementTypeButton-0x2").frame == Rect(20, 100, 80, 44))
        #expect(try s.view("XCUIElementTypeStaticText-0x3").frame == Rect(10, 10, 60, 24))
        #expect(s.hit(50, 120) == "XCUIElementTypeButton-0x2")
        #expect(s.hit(10, 10) == nil)
        #expect(s.hasWarning("no XCUIElementTypeWindow encloses these elements; each was put in a synthesized UIWindow of its own frame: XCUIElementTypeButton-0x2"))
    }

    @Test func elementsWithoutAddressesAndUnknownTypes() throws {
        let s = try Imported.xcuitest("""
        Element subtree:
         →Window (Main), {{0.0, 0.0}, {100.0, 100.0}}
            Button, {{0.0, 0.0}, {50.0, 50.0}}, label: 'A'
            Button, {{50.0, 0.0}, {50.0, 50.0}}
            Hologram, {{0.0, 50.0}, {50.0, 50.0}}
              Window, {{0.0, 50.0}, {10.0, 10.0}}
        """)
        #expect(s.scene.views.map(\.id) == ["XCUIElementTypeWindow-1", "XCUIElementTypeButton-1", "XCUIElementTypeButton-2",
                                            "XCUIElementTypeHologram-1", "XCUIElementTypeWindow-2"])
        #expect(s.scene.views.map(\.address) == [nil, nil, nil, nil, nil])
        #expect(try s.view("XCUIElementTypeHologram-1").base == .UIView)
        #expect(try s.view("XCUIElementTypeWindow-2").base == .UIView)
        #expect(s.hasWarning("unknown element types imported as UIView: XCUIElementTypeHologram"))
        #expect(s.hasWarning("XCUIElementTypeWindow inside another element imported as a plain view: XCUIElementTypeWindow at line 6"))
    }

    /// Xcode 7–8 printed `Type 0xADDRESS: …` and `Main Window`; Xcode 9–10 put `traits:` before
    /// the frame.
    @Test func olderXcodeLines() throws {
        let s = try Imported.xcuitest("""
        Attributes: Application 0x7f9c: {{0.0, 0.0}, {320.0, 568.0}}, label: 'Old'
        Element subtree:
         →Application 0x7f9c: {{0.0, 0.0}, {320.0, 568.0}}, label: 'Old'
            Window 0x7f9d: Main Window, {{0.0, 0.0}, {320.0, 568.0}}
              Button 0x7f9e: traits: 8589934593, {{10.0, 10.0}, {100.0, 44.0}}, identifier: 'go', label: 'Go'
              Other, 0x1c49915e0, traits: 8589934592, {{0.0, 100.0}, {320.0, 100.0}}
            Window 0x7f9f: {{0.0, 0.0}, {320.0, 568.0}}
        """)
        #expect(s.scene.name == "XCUITest debugDescription: Old")
        #expect(try s.view("XCUIElementTypeWindow-0x7f9d").overrides == nil)
        #expect(try s.view("XCUIElementTypeWindow-0x7f9f").overrides?.hitTest == .passThrough)
        let go = try s.view("XCUIElementTypeButton-0x7f9e")
        #expect(go.accessibilityIdentifier == "go")
        #expect(go.frame == Rect(10, 10, 100, 44))
        #expect(try s.view("XCUIElementTypeOther-0x1c49915e0").frame == Rect(0, 100, 320, 100))
        #expect(s.hit(50, 30) == "XCUIElementTypeButton-0x7f9e")
        #expect(s.hit(300, 500) == "XCUIElementTypeWindow-0x7f9d")
        #expect(s.hasWarning("not modelled): traits"))
    }

    @Test func textBeforeTheSectionsIsSkipped() throws {
        let s = try Imported.xcuitest("""
        # pasted from the test log
        (lldb) po app.debugDescription

        Attributes: Window (Main), 0x1, {{0.0, 0.0}, {10.0, 10.0}}
        Element subtree:
         →Window (Main), 0x1, {{0.0, 0.0}, {10.0, 10.0}}
        """)
        #expect(s.scene.views.count == 1)
        #expect(s.warnings.contains("text before the first section (Attributes:, Element subtree:) skipped: line 2"))
    }

    // MARK: refused at the line and column

    @Test func aSubtreeLineThatDoesNotParse() throws {
        let head = "Element subtree:\n →Window (Main), 0x1, {{0.0, 0.0}, {100.0, 100.0}}\n"
        let oldStyle = try #require(xcuitestError(head + "    Button 0x2 {{0.0, 0.0}, {10.0, 10.0}}"))
        #expect((oldStyle.line, oldStyle.column) == (3, 15))
        #expect(oldStyle.message.contains("expected ':' after the address"))
        let separator = try #require(xcuitestError(head + "    Button; 0x2, {{0.0, 0.0}, {10.0, 10.0}}"))
        #expect((separator.line, separator.column) == (3, 11))
        #expect(separator.message.contains("expected ', ' after the element type Button"))
        let foreign = try #require(xcuitestError(head + "    Button, 0x2, {{0.0, 0.0}, {10.0, 10.0}}, <UIButton: 0x7f>"))
        #expect((foreign.line, foreign.column) == (3, 46))
        #expect(foreign.message.contains("unexpected text"))
        let noType = try #require(xcuitestError(head + "    0x2, {{0.0, 0.0}, {10.0, 10.0}}"))
        #expect((noType.line, noType.column) == (3, 5))
        let tab = try #require(xcuitestError(head + "  \tButton, 0x2, {{0.0, 0.0}, {10.0, 10.0}}"))
        #expect((tab.line, tab.column) == (3, 3))
        #expect(tab.message.contains("tab"))
        let noFrame = try #require(xcuitestError(head + "    Button, 0x2, label: 'A'"))
        #expect((noFrame.line, noFrame.column) == (3, 5))
        #expect(noFrame.message.contains("has no frame"))
        let trailingComma = try #require(xcuitestError(head + "    Button, 0x2, {{0.0, 0.0}, {10.0, 10.0}},"))
        #expect((trailingComma.line, trailingComma.column) == (3, 45))
    }

    @Test func framesThatAreNotFramesOfFiniteNumbers() throws {
        func error(_ frame: String) throws -> ImportError {
            try #require(xcuitestError("Element subtree:\n →Window (Main), 0x1, \(frame)"))
        }
        // ` →Window (Main), 0x1, ` is 22 columns: the frame starts at column 23.
        let short = try error("{{0.0, 0.0}, {10.0}}")
        #expect((short.line, short.column) == (2, 41))
        #expect(short.message.contains("expected ',' in the frame {{x, y}, {width, height}}"))
        let nan = try error("{{nan, 0.0}, {1.0, 1.0}}")
        #expect((nan.line, nan.column) == (2, 25))
        #expect(nan.message.contains("x 'nan' is not a finite number"))
        let inf = try error("{{0.0, 0.0}, {1.0, inf}}")
        #expect((inf.line, inf.column) == (2, 42))
        #expect(inf.message.contains("height 'inf' is not a finite number"))
        let word = try error("{{0.0, zero}, {1.0, 1.0}}")
        #expect((word.line, word.column) == (2, 30))
        let negative = try error("{{0.0, 0.0}, {-1.0, 1.0}}")
        #expect((negative.line, negative.column) == (2, 37))
        #expect(negative.message.contains("width -1.0 is negative"))
        let unclosed = try error("{{0.0, 0.0}, {1.0, 1.0}")
        #expect((unclosed.line, unclosed.column) == (2, 46))
        let twice = try error("{{0.0, 0.0}, {1.0, 1.0}}, {{0.0, 0.0}, {1.0, 1.0}}")
        #expect((twice.line, twice.column) == (2, 49))
    }

    @Test func inconsistentIndentation() throws {
        let tooDeep = try #require(xcuitestError("""
        Element subtree:
         →Window (Main), 0x1, {{0.0, 0.0}, {100.0, 100.0}}
            Other, 0x2, {{0.0, 0.0}, {100.0, 100.0}}
                Button, 0x3, {{0.0, 0.0}, {10.0, 10.0}}
        """))
        #expect((tooDeep.line, tooDeep.column) == (4, 9))
        #expect(tooDeep.message.contains("indented 4 columns more than the element on line 3"))
        let odd = try #require(xcuitestError("""
        Element subtree:
         →Window (Main), 0x1, {{0.0, 0.0}, {100.0, 100.0}}
            Other, 0x2, {{0.0, 0.0}, {100.0, 100.0}}
              Button, 0x3, {{0.0, 0.0}, {10.0, 10.0}}
             Button, 0x4, {{0.0, 0.0}, {10.0, 10.0}}
        """))
        #expect((odd.line, odd.column) == (5, 6))
        #expect(odd.message.contains("indented 1 columns more than the element on line 3"))
        let shallower = try #require(xcuitestError("""
        Element subtree:
           →Window (Main), 0x1, {{0.0, 0.0}, {100.0, 100.0}}
          Other, 0x2, {{0.0, 0.0}, {100.0, 100.0}}
        """))
        #expect((shallower.line, shallower.column) == (3, 3))
        #expect(shallower.message.contains("indented less (2 columns) than the first element"))
    }

    @Test func noElementSubtreeSection() throws {
        let rd = try #require(xcuitestError("# SOURCE: somewhere\n<UIWindow: 0x1; frame = (0 0; 10 10)>\n"))
        #expect((rd.line, rd.column) == (2, 1))
        #expect(rd.message.hasPrefix("no Element subtree: section found: expected the output of print(app.debugDescription)"))
        let headerless = try #require(xcuitestError("\n   Window (Main), 0x1, {{0.0, 0.0}, {10.0, 10.0}}\n"))
        #expect((headerless.line, headerless.column) == (2, 4))
        let empty = try #require(xcuitestError(""))
        #expect((empty.line, empty.column) == (1, 1))
        #expect(empty.message.hasPrefix("no Element subtree: section found"))
        let json = try #require(xcuitestError(#"{"value":"Attributes: Window, 0x1, {{0.0, 0.0}, {1.0, 1.0}}\nElement subtree:\n →Window, 0x1, {{0.0, 0.0}, {1.0, 1.0}}"}"#))
        #expect((json.line, json.column) == (1, 62))
        #expect(json.message.contains("JSON-escaped"))
        let emptySection = try #require(xcuitestError("Attributes: Window, 0x1, {{0.0, 0.0}, {1.0, 1.0}}\n  Element subtree:\nPath to element:\n →Application, 0x2, pid: 1, label: 'A'\n"))
        #expect((emptySection.line, emptySection.column) == (2, 3))
        #expect(emptySection.message.contains("the Element subtree: section is empty"))
        let appOnly = try #require(xcuitestError("Element subtree:\n →Application, 0x2, pid: 1, label: 'A'\n"))
        #expect((appOnly.line, appOnly.column) == (2, 2))
        #expect(appOnly.message.contains("nothing to import"))
        let twice = try #require(xcuitestError("Element subtree:\n →Window, 0x1, {{0.0, 0.0}, {1.0, 1.0}}\nElement subtree:\n →Window, 0x1, {{0.0, 0.0}, {1.0, 1.0}}\n"))
        #expect((twice.line, twice.column) == (3, 1))
        #expect(twice.message.contains("a second Element subtree: section (the first is on line 1)"))
    }

    @Test func unterminatedQuotedValues() throws {
        let head = "Element subtree:\n →Window (Main), 0x1, {{0.0, 0.0}, {100.0, 100.0}}\n"
        let atEnd = try #require(xcuitestError(head + "    Button, 0x2, {{0.0, 0.0}, {10.0, 10.0}}, label: 'cut off"))
        #expect((atEnd.line, atEnd.column) == (3, 53))
        #expect(atEnd.message.contains("the quoted value begun here is not closed before the end of the input"))
        let beforeNext = try #require(xcuitestError(head + "    Button, 0x2, {{0.0, 0.0}, {10.0, 10.0}}, identifier: 'cut\n      still the identifier\n    Button, 0x3, {{0.0, 0.0}, {10.0, 10.0}}\n"))
        #expect((beforeNext.line, beforeNext.column) == (3, 58))
        #expect(beforeNext.message.contains("not closed before the next element or section (line 5)"))
        let beforeSection = try #require(xcuitestError(head + "    Button, 0x2, {{0.0, 0.0}, {10.0, 10.0}}, label: 'cut\nPath to element:\n"))
        #expect((beforeSection.line, beforeSection.column) == (3, 53))
        #expect(beforeSection.message.contains("(line 4)"))
        let unquoted = try #require(xcuitestError(head + "    Button, 0x2, {{0.0, 0.0}, {10.0, 10.0}}, label: OK"))
        #expect((unquoted.line, unquoted.column) == (3, 53))
        #expect(unquoted.message.contains("expected a quoted value after label:"))
    }

    @Test func aPathLineThatDoesNotParseIsRefusedToo() throws {
        let e = try #require(xcuitestError("Element subtree:\n →Window, 0x1, {{0.0, 0.0}, {1.0, 1.0}}\nPath to element:\n →Application, 0x2, pid: 1, label: 'A\n"))
        #expect((e.line, e.column) == (4, 36))
    }

    /// Timed by `taptrace-bench`, not here: tests do not assert on wall-clock time.
    @Test func twentyThousandLineDescriptionImports() throws {
        var text = "Attributes: Application, 0x1, pid: 9, label: 'Big'\nElement subtree:\n →Application, 0x1, pid: 9, label: 'Big'\n"
        text += "    Window (Main), 0x2, {{0.0, 0.0}, {400.0, 800.0}}\n      Table, 0x3, {{0.0, 0.0}, {400.0, 800.0}}\n"
        for i in 0..<10_000 {
            let y = i * 44
            text += "        Cell, 0x\(String(i * 2 + 16, radix: 16)), {{0.0, \(y).0}, {400.0, 44.0}}\n"
            text += "          StaticText, 0x\(String(i * 2 + 17, radix: 16)), {{16.0, \(y + 12).0}, {200.0, 20.0}}, label: 'Row \(i)', value: Row \(i)\n"
        }
        text += "Path to element:\n →Application, 0x1, pid: 9, label: 'Big'\n"
        let s = try Imported.xcuitest(text)
        #expect(s.scene.views.count == 2 + 2 * 10_000)
        #expect(s.hit(300, 100) == "XCUIElementTypeCell-0x14")
        #expect(try s.view("XCUIElementTypeStaticText-0x15").frame == Rect(16, 12, 200, 20))
    }
}

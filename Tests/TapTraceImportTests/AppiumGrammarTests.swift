import Testing
import TapTraceCore
@testable import TapTraceImport

private func appiumError(_ text: String) -> ImportError? {
    importError { () throws(ImportError) in try AppiumSourceParser.parse(Array(text.utf8)) }
}

/// How page-source elements become views: types, ids, visibility, windows.
struct AppiumGrammarTests {
    @Test func elementTypesMapToUIKitBases() throws {
        let s = try Imported.appium("""
        <XCUIElementTypeApplication name="Demo" x="0" y="0" width="100" height="200">
          <XCUIElementTypeWindow x="0" y="0" width="100" height="200">
            <XCUIElementTypeTable x="0" y="0" width="100" height="100">
              <XCUIElementTypeCell x="0" y="0" width="100" height="50"/>
            </XCUIElementTypeTable>
            <XCUIElementTypeCollectionView x="0" y="100" width="100" height="100">
              <XCUIElementTypeCell x="0" y="100" width="50" height="50">
                <XCUIElementTypeSwitch x="10" y="110" width="30" height="20" enabled="false"/>
              </XCUIElementTypeCell>
            </XCUIElementTypeCollectionView>
            <XCUIElementTypeSlider x="0" y="0" width="1" height="1"/>
            <XCUIElementTypeSecureTextField x="0" y="0" width="1" height="1"/>
            <XCUIElementTypeNavigationBar x="0" y="0" width="1" height="1"/>
            <XCUIElementTypeHologram x="0" y="0" width="1" height="1"/>
          </XCUIElementTypeWindow>
        </XCUIElementTypeApplication>
        """)
        let bases = s.scene.views.map(\.base)
        #expect(bases == [.UIWindow, .UITableView, .UITableViewCell, .UICollectionView, .UICollectionViewCell,
                          .UISwitch, .UISlider, .UITextField, .UIView, .UIView])
        #expect(s.scene.views.map(\.className)[2] == "XCUIElementTypeCell")
        // Frames are relative to the parent element.
        #expect(try s.view("Switch-1").frame == Rect(10, 10, 30, 20))
        #expect(try s.view("Switch-1").enabled == false)
        #expect(s.hasWarning("unknown element types imported as UIView: XCUIElementTypeHologram"))
        #expect(s.scene.name == "Appium page source: Demo")
        #expect(s.scene.app == nil)
    }

    @Test func idsFromUniqueNamesLabelsForDisplay() throws {
        let s = try Imported.appium("""
        <XCUIElementTypeWindow x="0" y="0" width="100" height="100">
          <XCUIElementTypeButton name="login.submit" label="Log in" x="0" y="0" width="50" height="20"/>
          <XCUIElementTypeStaticText name="Hint" x="0" y="20" width="50" height="20"/>
          <XCUIElementTypeStaticText name="Hint" label="Hint" x="0" y="40" width="50" height="20"/>
          <XCUIElementTypeButton label="UIApplication" x="0" y="60" width="50" height="20"/>
          <XCUIElementTypeButton name="" label="  " x="0" y="80" width="50" height="20"/>
        </XCUIElementTypeWindow>
        """)
        #expect(s.scene.views.map(\.id) == ["Window-1", "login.submit", "StaticText-1", "StaticText-2", "UIApplication-2", "Button-1"])
        #expect(try s.view("login.submit").label == "Log in")
        #expect(try s.view("StaticText-1").label == "Hint")
        #expect(try s.view("Button-1").label == nil)
        #expect(s.hit(10, 10) == "login.submit")
    }

    @Test func visibilityFollowsTheTreeNotJustTheAttribute() throws {
        let s = try Imported.appium("""
        <XCUIElementTypeWindow x="0" y="0" width="100" height="100">
          <XCUIElementTypeOther visible="false" x="0" y="0" width="100" height="100">
            <XCUIElementTypeButton name="shown" visible="true" x="0" y="0" width="50" height="50"/>
            <XCUIElementTypeButton name="gone" visible="false" x="50" y="50" width="50" height="50"/>
          </XCUIElementTypeOther>
          <XCUIElementTypeStaticText name="text" enabled="false" x="0" y="0" width="1" height="1"/>
        </XCUIElementTypeWindow>
        """)
        // A hidden container would hide its visible button: it stays visible, with a warning.
        #expect(try s.view("Other-1").hidden == nil)
        #expect(try s.view("gone").hidden == true)
        #expect(s.hit(10, 10) == "shown")
        #expect(s.hit(60, 60) == "Window-1")
        #expect(try s.view("text").enabled == nil)
        #expect(s.hasWarning("kept visible"))
        #expect(s.hasWarning("enabled=\"false\" on elements that are not controls has no effect here: text"))
    }

    @Test func windowsApplicationAndSynthesizedWindows() throws {
        let s = try Imported.appium("""
        <AppiumAUT>
          <XCUIElementTypeApplication name="Springboard" x="0" y="0" width="300" height="600">
            <XCUIElementTypeWindow visible="false" x="0" y="0" width="300" height="600"/>
            <XCUIElementTypeWindow x="0" y="0" width="300" height="600">
              <XCUIElementTypeButton name="a" x="0" y="100" width="300" height="100"/>
              <XCUIElementTypeWindow x="0" y="0" width="10" height="10"/>
            </XCUIElementTypeWindow>
            <XCUIElementTypeWindow x="0" y="0" width="300" height="600">
              <XCUIElementTypeStatusBar x="0" y="0" width="300" height="20"/>
            </XCUIElementTypeWindow>
            <XCUIElementTypeOther x="100" y="300" width="50" height="50"/>
          </XCUIElementTypeApplication>
        </AppiumAUT>
        """)
        #expect(s.scene.windows.map { s.scene.views[$0].id } == ["Window-1", "Window-2", "Window-4", "window"])
        // The first visible window is the app's; the others pass touches through outside
        // their elements, like the status bar window.
        #expect(try s.view("Window-2").overrides == nil)
        #expect(try s.view("Window-4").overrides?.hitTest == .passThrough)
        #expect(try s.view("Window-3").base == .UIView)
        #expect(s.hit(150, 150) == "a")
        #expect(s.hit(150, 10) == "StatusBar-1")
        // The element outside any window sits in a synthesized window of its own frame,
        // which takes no touch the element would not.
        #expect(try s.view("window").frame == Rect(100, 300, 50, 50))
        #expect(try s.view("Other-1").frame == Rect(100, 300, 50, 50))
        #expect(s.hit(120, 320) == "Other-1")
        #expect(s.hit(150, 400) == "Window-2")
    }

    @Test func containersPassTouchesToEarlierSiblings() throws {
        let s = try Imported.appium("""
        <XCUIElementTypeWindow x="0" y="0" width="100" height="100">
          <XCUIElementTypeNavigationBar x="0" y="0" width="100" height="20">
            <XCUIElementTypeButton name="Back" x="0" y="0" width="30" height="20"/>
          </XCUIElementTypeNavigationBar>
          <XCUIElementTypeOther x="0" y="0" width="100" height="100">
            <XCUIElementTypeOther name="leaf" x="0" y="50" width="100" height="50"/>
          </XCUIElementTypeOther>
        </XCUIElementTypeWindow>
        """)
        #expect(s.hit(10, 10) == "Back")
        #expect(s.hit(50, 10) == "NavigationBar-1")
        // A leaf Other is a view like any other.
        #expect(s.hit(50, 70) == "leaf")
        #expect(s.hit(50, 30) == "Window-1")
    }

    @Test func contentErrorsAreLocated() throws {
        let missing = try #require(appiumError("<XCUIElementTypeWindow x=\"0\" y=\"0\" width=\"1\"/>"))
        #expect((missing.line, missing.column) == (1, 1))
        #expect(missing.message.contains("no height attribute"))
        let nan = try #require(appiumError("<XCUIElementTypeWindow x=\"0\" y=\"nan\" width=\"1\" height=\"1\"/>"))
        #expect((nan.line, nan.column) == (1, 33))
        let negative = try #require(appiumError("<XCUIElementTypeWindow x=\"0\" y=\"0\" width=\"-1\" height=\"1\"/>"))
        #expect(negative.message.contains("negative"))
        let flag = try #require(appiumError("<XCUIElementTypeWindow visible=\"maybe\" x=\"0\" y=\"0\" width=\"1\" height=\"1\"/>"))
        #expect((flag.line, flag.column) == (1, 33))
        let android = try #require(appiumError("<?xml version=\"1.0\"?>\n<hierarchy rotation=\"0\"><node/></hierarchy>"))
        #expect((android.line, android.column) == (2, 1))
        #expect(android.message.contains("Android"))
        let foreign = try #require(appiumError("<XCUIElementTypeWindow x=\"0\" y=\"0\" width=\"1\" height=\"1\">\n  <div/>\n</XCUIElementTypeWindow>"))
        #expect((foreign.line, foreign.column) == (2, 3))
        let empty = try #require(appiumError("<AppiumAUT><XCUIElementTypeApplication x=\"0\" y=\"0\" width=\"1\" height=\"1\"/></AppiumAUT>"))
        #expect(empty.message.contains("nothing to import"))
    }

    /// Timed by `taptrace-bench import`, not here: tests do not assert on wall-clock time.
    @Test func twentyThousandLinePageSourceImports() throws {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<AppiumAUT><XCUIElementTypeApplication name=\"Big\" x=\"0\" y=\"0\" width=\"400\" height=\"800\">\n"
        text += "<XCUIElementTypeWindow x=\"0\" y=\"0\" width=\"400\" height=\"800\">\n<XCUIElementTypeTable x=\"0\" y=\"0\" width=\"400\" height=\"800\">\n"
        for i in 0..<6_663 {
            let y = i * 44
            text += "<XCUIElementTypeCell type=\"XCUIElementTypeCell\" enabled=\"true\" visible=\"\(y < 800)\" x=\"0\" y=\"\(y)\" width=\"400\" height=\"44\" index=\"\(i)\">\n"
            text += "  <XCUIElementTypeStaticText type=\"XCUIElementTypeStaticText\" value=\"Row \(i)\" name=\"Row \(i)\" label=\"Row \(i)\" enabled=\"true\" visible=\"\(y < 800)\" x=\"16\" y=\"\(y + 12)\" width=\"200\" height=\"20\"/>\n"
            text += "</XCUIElementTypeCell>\n"
        }
        text += "</XCUIElementTypeTable>\n</XCUIElementTypeWindow>\n</XCUIElementTypeApplication></AppiumAUT>\n"
        let s = try Imported.appium(text)
        #expect(s.scene.views.count == 2 + 2 * 6_663)
        #expect(s.hit(300, 100) == "Cell-3")
        #expect(try s.view("Row 2").frame == Rect(16, 12, 200, 20))
    }
}

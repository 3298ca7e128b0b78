import Testing
import TapTraceCore
@testable import TapTraceImport

/// `allTargets`, `allControlEvents` and `actionsForTarget:forControlEvent:` answers with the
/// questions that asked them. The samples have no hierarchy of their own: the join tests put
/// view lines written for the test (with the addresses the sample asks about) before the real
/// sample text.
struct ControlTargetsTests {
    // MARK: the samples, parsed

    @Test func lldbSetAndArrayAboutAVariable() throws {
        let answers = try AddOns.controlTargets(try Fixtures.named("allTargets_01"))
        #expect(answers.count == 2)
        #expect(answers[0].receiver == .named("$myButton"))
        #expect(answers[0].question == .allTargets)
        #expect(answers[0].objects.map(\.text) == ["MagicEventListener 0x7fb58bd2e240"])
        #expect(answers[1].question == .actions(target: .address("0x7fb58bd2e240"), events: .mask(0)))
        #expect(answers[1].selectors == ["_handleTap:"])
        #expect(answers.map(\.commandLine) == [2, 6])
    }

    @Test func cycriptAnswersAboutTwoButtonsByAddress() throws {
        let answers = try AddOns.controlTargets(try Fixtures.named("allTargets_02"))
        #expect(answers.map(\.receiver) == [.address("0x17a9cad0"), .address("0x17a9cad0"), .address("0x17a9cad0"), .address("0x170bab80"), .address("0x170bab80")])
        #expect(answers[0].question == .allTargets)
        #expect(answers[0].objects.map(\.text) == ["WeixinContactInfoAssist 0x174eb8b0"])
        #expect(answers[1].question == .allControlEvents && answers[1].integer == 64)
        #expect(answers[2].question == .actions(target: .address("0x174eb8b0"), events: .mask(64)))
        #expect(answers[2].selectors == ["onVerifyContactOk"])
        // An element picked out of allObjects, then asked about by repeating the expression.
        #expect(answers[3].objects.map(\.text) == ["WCPayOfflinePayViewController 0x1642b200"])
        #expect(answers[3].expression == "[[#0x170bab80allTargets]allObjects][0]")
        #expect(answers[4].question == .actions(target: .expression("[[#0x170bab80allTargets]allObjects][0]"), events: .allControlEvents))
        #expect(answers[4].selectors == ["receiveMoneyBtnPress:"])
    }

    @Test func questionsInObjectiveCSwiftAndCycript() {
        func q(_ command: String) -> (ControlTargetAnswer.Receiver, ControlTargetAnswer.Question) {
            ControlTargetsParser.question(ControlTargetsParser.expression(command))
        }
        #expect(q("(lldb) po [(UIButton *)0x7fb58bd2e240 allTargets]") == (.address("0x7fb58bd2e240"), .allTargets))
        #expect(q("(lldb) expr -O -- [((UIButton *)0x7f01) allControlEvents]") == (.address("0x7f01"), .allControlEvents))
        #expect(q("(lldb) po self.saveButton.allTargets") == (.named("self.saveButton"), .allTargets))
        #expect(q("(lldb) po unsafeBitCast(0x7f02, to: UIButton.self).allControlEvents") == (.address("0x7f02"), .allControlEvents))
        #expect(q("(lldb) po unsafeBitCast(0x7f02, to: UIButton.self).actions(forTarget: unsafeBitCast(0x7f03, to: AnyObject.self), forControlEvent: .touchUpInside)")
                == (.address("0x7f02"), .actions(target: .address("0x7f03"), events: .mask(64))))
        #expect(q("(lldb) po [(UIButton *)0x7f02 actionsForTarget:[NSNull null] forControlEvent:UIControlEventTouchUpInside|UIControlEventTouchDown]")
                == (.address("0x7f02"), .actions(target: .null, events: .mask(65))))
        #expect(q("cy# [#0x17a9cad0 actionsForTarget:#0x174eb8b0  forControlEvent:0x40]") == (.address("0x17a9cad0"), .actions(target: .address("0x174eb8b0"), events: .mask(64))))
    }

    // MARK: joined

    private let weChatButtons = """
    <UIWindow: 0x16e1e6a0; frame = (0 0; 320 568); layer = <UIWindowLayer: 0x16e1e8c0>>
       | <UIView: 0x16e36c30; frame = (0 0; 320 568); layer = <CALayer: 0x16e36ce0>>
       |    | <UIButton: 0x17a9cad0; frame = (20 400; 280 44); opaque = NO; layer = <CALayer: 0x17a9cc60>>
       |    | <UIButton: 0x170bab80; frame = (20 460; 280 44); opaque = NO; layer = <CALayer: 0x170bad10>>

    """

    @Test func cycriptTargetsJoinTheButtonsTheyNameByAddress() throws {
        let s = try Imported.recursiveDescription(weChatButtons + Fixtures.pasted("allTargets_02"))
        // The assist object is not a view or controller: a nil target, named in a warning.
        #expect(try s.view("UIButton-0x17a9cad0").targets == [ControlTarget(events: [.touchUpInside], target: nil, action: "onVerifyContactOk")])
        #expect(try s.view("UIButton-0x170bab80").targets == [ControlTarget(events: [.touchUpInside], target: nil, action: "receiveMoneyBtnPress:")])
        let nilTargets = try #require(s.warning("imported as nil targets (A2"))
        #expect(nilTargets.contains("WeixinContactInfoAssist 0x174eb8b0 (onVerifyContactOk of UIButton 0x17a9cad0)"))
        #expect(nilTargets.contains("WCPayOfflinePayViewController 0x1642b200 (receiveMoneyBtnPress: of UIButton 0x170bab80)"))
        // The second button's mask was asked as [… allControlEvents], which was never answered.
        #expect(s.warning("whose event the paste does not give")?.contains("receiveMoneyBtnPress: of UIButton 0x170bab80 (touchUpInside)") == true)
        #expect(!s.hasWarning("debugger prompt lines skipped"))
    }

    /// The controller line is written for the test with the address the sample's target has.
    @Test func aTargetPickedByAnExpressionJoinsTheControllerItNamed() throws {
        let s = try Imported.recursiveDescription(weChatButtons
            + "<WCPayOfflinePayViewController 0x1642b200>, state: appeared, view: <UIView 0x16e36c30>\n"
            + Fixtures.pasted("allTargets_02"))
        #expect(try s.view("UIButton-0x170bab80").targets == [ControlTarget(events: [.touchUpInside], target: "WCPayOfflinePayViewController-0x1642b200", action: "receiveMoneyBtnPress:")])
        let stable = try Imported.recursiveDescription(weChatButtons
            + "<WCPayOfflinePayViewController 0x1642b200>, state: appeared, view: <UIView 0x16e36c30>\n"
            + Fixtures.pasted("allTargets_02"), ids: .stable)
        let button = try #require(stable.scene.views.first { $0.address == "0x170bab80" })
        #expect(button.targets?.first?.target == "WCPayOfflinePayViewController")
    }

    @Test func answersAboutAVariableCannotBeJoined() throws {
        let s = try Imported.recursiveDescription("""
        <UIView: 0x1; frame = (0 0; 100 100)>
           | <UIButton: 0x2; frame = (0 0; 50 20)>

        """ + Fixtures.pasted("allTargets_01"))
        #expect(try s.view("UIButton-0x2").targets == nil)
        let w = try #require(s.warning("named by a variable"))
        #expect(w.hasSuffix("$myButton (line 3), $myButton (line 7)"))
    }

    private let toggleCell = """
    <UITableView: 0x13f000000; frame = (0 0; 594 600); contentOffset: {0, 0}; contentSize: {594, 600}>
       | <VPNToggleCell: 0x13e0c3400; baseClass = UITableViewCell; frame = (0 55.5; 594.5 45); text = 'Status'; autoresize = W; tag = 6; layer = <CALayer: 0x13f004a80>>
       |    | <UISwitch: 0x13f263980; frame = (530 7; 51 31); layer = <CALayer: 0x13f263b80>>
    (lldb) po [(UISwitch *)0x13f263980 allTargets]
    {(
        <VPNToggleCell: 0x13e0c3400; baseClass = UITableViewCell; frame = (0 55.5; 594.5 45); text = 'Status'; autoresize = W; tag = 6; layer = <CALayer: 0x13f004a80>>
    )}

    """

    @Test func aTargetThatIsAViewWithTheMaskFromAllControlEvents() throws {
        let s = try Imported.recursiveDescription(toggleCell + """
        (lldb) po [(UISwitch *)0x13f263980 allControlEvents]
        4096
        (lldb) po [(UISwitch *)0x13f263980 actionsForTarget:(id)0x13e0c3400 forControlEvent:0]
        <__NSArrayM 0x13ddd9ca0>(
        controlChanged:
        )
        """)
        #expect(try s.view("UISwitch-0x13f263980").targets == [ControlTarget(events: [.valueChanged], target: "VPNToggleCell-0x13e0c3400", action: "controlChanged:")])
        #expect(!s.hasWarning("event the paste does not give"))
        #expect(!s.hasWarning("nil targets"))
    }

    @Test func anyEventWithoutAllControlEventsIsTheControlsUsualEvent() throws {
        let s = try Imported.recursiveDescription(toggleCell + """
        (lldb) po [(UISwitch *)0x13f263980 actionsForTarget:(id)0x13e0c3400 forControlEvent:0]
        (
            "controlChanged:"
        )
        """)
        #expect(try s.view("UISwitch-0x13f263980").targets == [ControlTarget(events: [.valueChanged], target: "VPNToggleCell-0x13e0c3400", action: "controlChanged:")])
        #expect(s.warning("event the paste does not give")?.hasSuffix("controlChanged: of UISwitch 0x13f263980 (valueChanged)") == true)
    }

    @Test func nilTargetedActionsAndViewsThatAnswerAsControls() throws {
        let s = try Imported.recursiveDescription("""
        <UIView: 0x1; frame = (0 0; 100 100)>
           | <BuyControl: 0x3; frame = (0 0; 50 20)>
        (lldb) po [(BuyControl *)0x3 allTargets]
        {(
            <null>
        )}
        (lldb) po [(BuyControl *)0x3 actionsForTarget:[NSNull null] forControlEvent:64]
        <__NSArrayM 0x30>(
        buy:
        )
        """)
        let control = try s.view("BuyControl-0x3")
        #expect(control.base == .UIControl && control.explicitBase)
        #expect(control.targets == [ControlTarget(events: [.touchUpInside], target: nil, action: "buy:")])
        #expect(s.warning("imported as UIControl because they answered allTargets") == "views imported as UIControl because they answered allTargets: BuyControl-0x3")
        #expect(!s.hasWarning("nil targets"))
    }

    @Test func answersWithoutTheirQuestionAreNamed() throws {
        let s = try Imported.recursiveDescription("""
        <UIView: 0x1; frame = (0 0; 100 100)>
        {(
            <MagicEventListener: 0x7fb58bd2e240>
        )}
        """)
        #expect(s.warning("without the command that asked them") != nil)
        #expect(s.warning("without the command that asked them")?.hasSuffix("line 2") == true)
    }

    // MARK: malformed

    @Test func anUnclosedSetIsRefusedAtItsOpening() throws {
        let e = try #require(pasteError("""
        <UIButton: 0x3; frame = (0 0; 50 20)>
        (lldb) po [(UIButton *)0x3 allTargets]
        {(
            <MagicEventListener: 0x10>
        """))
        #expect((e.line, e.column) == (3, 1))
        #expect(e.message.contains("not closed"))
    }

    @Test func aSelectorThatIsNotOneAndTextAfterAnAnswerAreRefused() throws {
        let selector = try #require(pasteError("""
        <UIButton: 0x3; frame = (0 0; 50 20)>
        (lldb) po [(UIButton *)0x3 actionsForTarget:(id)0x10 forControlEvent:64]
        <__NSArrayM 0x30>(
            1buy:
        )
        """))
        #expect((selector.line, selector.column) == (4, 5))
        let trailing = try #require(pasteError("""
        <UIButton: 0x3; frame = (0 0; 50 20)>
        (lldb) po [(UIButton *)0x3 allControlEvents]
        64 apples
        """))
        #expect((trailing.line, trailing.column) == (3, 4))
    }
}

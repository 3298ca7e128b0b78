import Foundation

// Shortcuts on the generated answer types for the checks a test makes most: who became first
// responder, which actions were sent, which elements cannot be tapped.

extension Components.Schemas.Run {
    /// The id of the first touch's hit-test view; nil when no view was hit.
    public var firstResponderID: String? { firstResponder?.id }
    /// The action selectors sent, in order (`["buyTapped:"]`).
    public var actionNames: [String] { actions.map(\.action) }
    /// The run's result document (the generator wraps it as `result.value1`).
    public var resultDocument: Components.Schemas.ResultMembers { result.value1 }
}

extension Components.Schemas.ResultMembers {
    /// The id of the first touch's hit-test view; nil when no view was hit.
    public var firstResponderID: String? { firstResponder?.id }
    /// The action selectors sent, in order (`["buyTapped:"]`).
    public var actionNames: [String] { actions.map(\.action) }
    /// The responder chain's ids, first responder first.
    public var responderChainIDs: [String] { responderChain.map(\.id) }
}

extension Components.Schemas.TappabilityAudit {
    /// The elements that cannot be tapped at all (the audit's verdict), in document order.
    public var unreachableElements: [Components.Schemas.AuditElement] {
        elements.filter { $0.status == .unreachable }
    }

    /// The element with this id, if it is interactive.
    public func element(_ id: String) -> Components.Schemas.AuditElement? { elements.first { $0.id == id } }
}

extension Components.Schemas.SceneVersionSummary {
    /// The scene's id, for `tap(_:in:)`, `dispatch(_:in:)` and `audit(scene:)`.
    public var sceneID: SceneID { SceneID(id) }
}

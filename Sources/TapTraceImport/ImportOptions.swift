/// What a client chooses about an import, the same over HTTP (`?ids=`, `?name=`) and in the CLI
/// (`--ids`, `--name`).
public struct ImportOptions: Sendable, Hashable {
    /// How imported views are named.
    public enum Identity: String, Sendable, Hashable, CaseIterable {
        /// From what a relaunch keeps: the accessibility identifier, else class and label, else
        /// class and position under the nearest such view (`ImportIdentity`). The default.
        case stable
        /// `Class-0xADDRESS` as the dump printed it (`Class-<n>` where addresses were purged):
        /// unique per launch, so two captures share no id.
        case address
    }

    public var ids: Identity
    /// The scene's name; nil keeps the importer's own (`recursiveDescription: UIWindow`).
    public var name: String?

    public init(ids: Identity = .stable, name: String? = nil) {
        self.ids = ids; self.name = name
    }
}

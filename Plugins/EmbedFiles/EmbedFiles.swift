import Foundation
import PackagePlugin

/// Compiles files of the repository into the binary at build time, so that `taptrace serve`
/// needs nothing beside it: the trace viewer (`viewer/`) and `openapi.yaml` into
/// TapTraceService, the SQL migrations of each engine (`migrations/sqlite/`, `migrations/postgres/`)
/// into TapTraceStore and TapTraceStorePostgres. The files stay where
/// they are; `taptrace-embed` writes each set as a Swift file of string literals in the build
/// folder, and SwiftPM runs it again whenever one of them changes.
@main
struct EmbedFiles: BuildToolPlugin {
    struct PluginError: Error, CustomStringConvertible {
        let description: String
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let embeds: [(type: String, files: [URL])]
        switch target.name {
        case "TapTraceService":
            let viewer = try files(in: root.appending(path: "viewer"))
            guard viewer.contains(where: { $0.lastPathComponent == "index.html" }) else {
                throw PluginError(description: "viewer/index.html is missing")
            }
            embeds = [("EmbeddedViewer", viewer), ("EmbeddedOpenAPI", [root.appending(path: "openapi.yaml")])]
        case "TapTraceStore":
            embeds = [("EmbeddedMigrations", try sql(in: root.appending(path: "migrations/sqlite")))]
        case "TapTraceStorePostgres":
            embeds = [("EmbeddedPostgresMigrations", try sql(in: root.appending(path: "migrations/postgres")))]
        default:
            throw PluginError(description: "EmbedFiles knows what to embed in TapTraceService, TapTraceStore and TapTraceStorePostgres, not in \(target.name)")
        }
        let tool = try context.tool(named: "taptrace-embed")
        return embeds.map { embed in
            let output = context.pluginWorkDirectoryURL.appending(path: "\(embed.type).swift")
            return .buildCommand(displayName: "Embedding \(embed.files.count) file(s) as \(embed.type)",
                                 executable: tool.url,
                                 arguments: [output.path, embed.type] + embed.files.map(\.path),
                                 inputFiles: embed.files, outputFiles: [output])
        }
    }

    /// The `.sql` files of one engine's migrations folder, sorted by name.
    private func sql(in folder: URL) throws -> [URL] {
        try files(in: folder).filter { $0.pathExtension == "sql" }
    }

    /// The files of a folder, sorted by name; hidden files skipped, folders refused (the viewer
    /// is served flat, `GET /viewer/<file>`).
    private func files(in folder: URL) throws -> [URL] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        var files: [URL] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let url = folder.appending(path: name)
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), isFolder.boolValue {
                throw PluginError(description: "\(folder.lastPathComponent)/\(name)/: only files are embedded, no folders")
            }
            files.append(url)
        }
        return files
    }
}

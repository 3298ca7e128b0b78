import Foundation

/// `Cpus_allowed_list` of /proc/thread-self/status: the processors the calling thread may run
/// on, as the kernel reports them ("0-1", "0", "0,2-3"); empty where there is no such file.
/// What the affinity tests of the HTTP workers and of the run writer compare with.
public func allowedProcessorList() -> String {
    let status = (try? String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") } ?? ""
    return line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces)
}

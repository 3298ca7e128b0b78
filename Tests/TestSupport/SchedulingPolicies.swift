import Foundation

/// The scheduling policy of each thread of this process named `name` (0 `SCHED_OTHER`,
/// 3 `SCHED_BATCH`, 5 `SCHED_IDLE`); empty where there is no such thread or no /proc. What
/// the tests of the Checkpointer's class read.
public func schedulingPolicies(ofThreadsNamed name: String) -> [Int] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { tid in
        guard let comm = try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8),
              comm.trimmingCharacters(in: .whitespacesAndNewlines) == name
        else { return nil }
        return schedulingPolicy(inStatOf: "/proc/self/task/\(tid)")
    }
}

/// The calling thread's scheduling policy, as `schedulingPolicies(ofThreadsNamed:)` gives
/// them; nil where there is no /proc. What the run writer's test reads from its thread.
public func schedulingPolicyOfCurrentThread() -> Int? {
    schedulingPolicy(inStatOf: "/proc/thread-self")
}

/// Field 41 of `<directory>/stat`.
private func schedulingPolicy(inStatOf directory: String) -> Int? {
    guard let stat = try? String(contentsOfFile: "\(directory)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")")
    else { return nil }
    // Fields after the name, which may hold spaces: state is field 3, policy field 41.
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return fields.count > 38 ? Int(fields[38]) : nil
}

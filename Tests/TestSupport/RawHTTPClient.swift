#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Shared by the HTTP layer's and the service's tests (a target of its own so that it is not
/// copied). A minimal blocking HTTP/1.1 client over a raw TCP socket, so tests control exactly what is
/// sent (keep-alive, chunking, oversized heads) and see exactly what comes back.
public final class RawHTTPClient {
    public struct ClientError: Error, CustomStringConvertible {
        public let description: String
    }

    public struct Response {
        public var status: Int
        public var reason: String
        public var headers: [(name: String, value: String)]
        public var body: [UInt8]

        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        public var bodyText: String { String(decoding: body, as: UTF8.self) }
    }

    private let fd: Int32
    /// The socket, for polling it.
    public var descriptor: Int32 { fd }
    private var buffer: [UInt8] = []
    private(set) var isClosed = false

    /// Connects to 127.0.0.1:`port`; reads time out after `timeoutSeconds`.
    public init(port: UInt16, timeoutSeconds: Int = 20) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ClientError(description: "socket() failed: errno \(errno)") }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw ClientError(description: "connect() failed: errno \(code)")
        }
    }

    deinit { close() }

    public func close() {
        if !isClosed {
            isClosed = true
            Glibc.close(fd)
        }
    }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw ClientError(description: "send() failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Sends a request; `Content-Length` is added when there is a body.
    public func sendRequest(_ method: String, _ target: String, headers: [(String, String)] = [],
                     body: [UInt8] = []) throws {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if !body.isEmpty { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        try send(Array(head.utf8) + body)
    }

    /// Sends a request and reads its response.
    public func request(_ method: String, _ target: String, headers: [(String, String)] = [],
                 body: [UInt8] = []) throws -> Response {
        try sendRequest(method, target, headers: headers, body: body)
        return try readResponse(bodyExpected: method != "HEAD")
    }

    /// Reads one response. With `bodyExpected` false (HEAD) no body is read whatever the
    /// Content-Length says.
    public func readResponse(bodyExpected: Bool = true) throws -> Response {
        let headEnd = try readUntil([13, 10, 13, 10])
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw ClientError(description: "bad status line in \(head)")
        }
        let headers = lines.compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (name: String(line[..<colon]),
                    value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = Response(status: status, reason: statusLine.count > 2 ? String(statusLine[2]) : "",
                                headers: headers, body: [])
        guard bodyExpected, status != 204, status != 304, status >= 200 else { return response }
        if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while true {
                let lineEnd = try readUntil([13, 10])
                let sizeText = String(decoding: buffer[..<lineEnd], as: UTF8.self).split(separator: ";")[0]
                buffer.removeFirst(lineEnd + 2)
                guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else {
                    throw ClientError(description: "bad chunk size \(sizeText)")
                }
                if size == 0 {
                    _ = try readUntil([13, 10])
                    buffer.removeFirst(2)
                    break
                }
                try fill(size + 2)
                response.body += buffer[..<size]
                buffer.removeFirst(size + 2)
            }
        } else if let lengthText = response.header("Content-Length"), let length = Int(lengthText) {
            try fill(length)
            response.body = Array(buffer[..<length])
            buffer.removeFirst(length)
        } else {
            while try receiveMore() {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// True when the server closed the connection (reading yields EOF) with nothing else sent.
    public func readsEOF() throws -> Bool {
        if !buffer.isEmpty { return false }
        return try !receiveMore()
    }

    /// True when response bytes have arrived and not been read yet; does not wait.
    public func hasDataWaiting() -> Bool {
        if !buffer.isEmpty { return true }
        var byte: UInt8 = 0
        return recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// True when the peer closed or reset the connection; false when data arrived or the read
    /// timed out.
    public func peerClosed() -> Bool {
        guard buffer.isEmpty else { return false }
        var byte: UInt8 = 0
        let count = recv(fd, &byte, 1, 0)
        if count == 0 { return true }
        if count > 0 { buffer.append(byte); return false }
        return errno == ECONNRESET || errno == EPIPE
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= marker.count {
                for start in searchFrom...(buffer.count - marker.count)
                where buffer[start..<(start + marker.count)].elementsEqual(marker) {
                    return start
                }
                searchFrom = buffer.count - marker.count + 1
            }
            guard try receiveMore() else {
                throw ClientError(description: "connection closed before a complete response (\(buffer.count) bytes)")
            }
        }
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count {
            guard try receiveMore() else {
                throw ClientError(description: "connection closed after \(buffer.count) of \(count) bytes")
            }
        }
    }

    /// Reads what is available; false on EOF.
    private func receiveMore() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw ClientError(description: "recv() failed: errno \(errno)") }
        if count == 0 { return false }
        buffer += chunk[..<count]
        return true
    }
}

import CMicroHTTPD
import Foundation

/// The access-handler logic: limits, body accumulation and queueing the response.
extension HTTPServer {
    func process(_ context: RequestContext, connection: OpaquePointer,
                 method: UnsafePointer<CChar>?, version: UnsafePointer<CChar>?,
                 uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>?) -> MHD_Result {
        if let deferred = context.deferred {
            // Called again after MHD_resume_connection: the deferred response is ready.
            guard let response = deferred.take() else { return .YES }
            context.deferred = nil
            deferredPickedUp()
            return queue(response, for: context, on: connection, close: false)
        }
        if !context.headersReceived {
            // First call: the request line and headers are complete, no body read yet.
            context.headersReceived = true
            watch.headArrived(taptrace_mhd_connection_fd(connection))
            context.method = method.map { String(cString: $0) } ?? "GET"
            context.httpVersion = version.map { String(cString: $0) } ?? "HTTP/1.1"
            MHD_get_connection_values(connection, .HEADER_KIND, mhdCollectHeader,
                                      Unmanaged.passUnretained(context).toOpaque())
            if let refusal = relayRefusal(context.headers[RelayRefusal.fieldName]) {
                // The relay's stand-in for a request it refused (decision 145).
                return queue(errorResponse(refusal.status, refusal.detail), for: context, on: connection, close: true)
            }
            if let rejection = headRejection(context, connection: connection) ?? accessRejection(context) {
                // Queued before the body is read: libmicrohttpd discards the rest of the request
                // and closes the connection after the response.
                return queue(rejection, for: context, on: connection, close: true)
            }
            return .YES
        }

        if let uploadDataSize, uploadDataSize.pointee > 0 {
            let count = uploadDataSize.pointee
            uploadDataSize.pointee = 0
            if context.pendingRejection != nil {
                // Already over the limit: drop the data, but not forever.
                context.discardedBytes += count
                return context.discardedBytes > maxDiscardedBytes ? .NO : .YES
            }
            if context.body.count + count > configuration.maxBodyBytes {
                // libmicrohttpd (0.9.75) refuses MHD_queue_response while body data is being
                // delivered, so the 413 is queued once the request ends; until then the rest is
                // discarded, not stored, and past `maxDiscardedBytes` the connection is dropped.
                context.discardedBytes = context.body.count + count
                context.body = []
                let refusal = RelayRefusal.bodyTooLarge(limit: configuration.maxBodyBytes)
                context.pendingRejection = errorResponse(refusal.status, refusal.detail)
                return .YES
            }
            if let uploadData {
                context.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: count))
            }
            return .YES
        }

        if let rejection = context.pendingRejection {
            return queue(rejection, for: context, on: connection, close: true)
        }
        if context.headers.contains("Transfer-Encoding"),
           let refusal = relayRefusal(MHD_lookup_connection_value(connection, .FOOTER_KIND, RelayRefusal.fieldName)
               .map { String(cString: $0) }) {
            // A chunked body the relay refused part-way: it ended the body with its mark as a
            // trailer field, and the handler never sees the truncated body.
            return queue(errorResponse(refusal.status, refusal.detail), for: context, on: connection, close: true)
        }
        let request = HTTPRequest(method: context.method, target: context.target, headers: context.headers,
                                  body: context.body, httpVersion: context.httpVersion)
        context.body = []
        watch.handling(taptrace_mhd_connection_fd(connection), cancellation: request.cancellation)
        let response = respond(to: request)
        if let work = response.deferredWork {
            return suspend(context, on: connection, origin: request.headers["Origin"], work: work)
        }
        return queue(response, for: context, on: connection, close: false)
    }

    /// Suspends the connection, then starts `work`; its completion stores the response and
    /// resumes the connection, whose thread then queues it (see the top of `process`).
    /// Suspending first means a completion can never come before the suspension.
    private func suspend(_ context: RequestContext, on connection: OpaquePointer, origin: String?,
                         work: HTTPResponse.DeferredWork) -> MHD_Result {
        let completion = DeferredCompletion()
        context.deferred = completion
        context.wasDeferred = true
        deferredBegan()
        MHD_suspend_connection(connection)
        let address = UInt(bitPattern: connection)
        work { [self] produced in
            var response = produced
            cors.decorate(&response, origin: origin)
            guard completion.complete(with: response) else { return }
            MHD_resume_connection(OpaquePointer(bitPattern: address))
        }
        return .YES
    }

    /// The refusal a relay's mark carries, or nil (no mark, a forged one, or no relay: then the
    /// field is not even looked up).
    private func relayRefusal(_ fieldValue: @autoclosure () -> String?) -> RelayRefusal? {
        guard relaysConnections, let value = fieldValue() else { return nil }
        return RelayRefusal(fieldValue: value, nonce: refusalNonce)
    }

    /// How much of an oversized body of unknown length is read and dropped before giving up
    /// on answering 413 and closing the connection.
    var maxDiscardedBytes: Int { max(configuration.maxBodyBytes, 1 << 20) }

    /// 400 (framing, `Host`), 501, 414, 431 or 413 (declared Content-Length) decided from the
    /// head alone.
    private func headRejection(_ context: RequestContext, connection: OpaquePointer) -> HTTPResponse? {
        if let framing = Self.framingRejection(context.headers, httpVersion: context.httpVersion) {
            return errorResponse(framing.status, framing.detail)
        }
        if context.target.utf8.count > configuration.maxURILength {
            let refusal = RelayRefusal.targetTooLong(limit: configuration.maxURILength)
            return errorResponse(refusal.status, refusal.detail)
        }
        var headerBytes = taptrace_mhd_request_header_size(connection)
        if headerBytes == 0 {
            headerBytes = context.method.utf8.count + context.target.utf8.count + context.httpVersion.utf8.count + 4
                + context.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        }
        if headerBytes > configuration.maxHeaderBytes {
            let refusal = RelayRefusal.headTooLarge(limit: configuration.maxHeaderBytes)
            return errorResponse(refusal.status, refusal.detail)
        }
        if let declared = context.headers["Content-Length"],
           let length = HTTPHeaders.contentLength(declared),
           length > UInt64(configuration.maxBodyBytes) {
            let refusal = RelayRefusal.bodyTooLarge(limit: configuration.maxBodyBytes)
            return errorResponse(refusal.status, refusal.detail)
        }
        return nil
    }

    /// A head whose framing or target is ambiguous, refused before its body is read (RFC 9112
    /// §3.2, §6.1–6.3): libmicrohttpd accepts a missing or repeated `Host`, picks one of several
    /// `Content-Length`s and reads chunks when `Transfer-Encoding` and `Content-Length` are both
    /// present. A proxy in front may frame the same bytes differently (request smuggling), so
    /// each of these is a 400 and the connection is closed after it.
    static func framingRejection(_ headers: HTTPHeaders, httpVersion: String) -> (status: Int, detail: String)? {
        let hosts = headers.values(for: "Host")
        if hosts.count > 1 {
            return (400, "the request has \(hosts.count) Host header fields; exactly one is required")
        }
        if hosts.isEmpty && httpVersion != "HTTP/1.0" {
            return (400, "the request has no Host header field; HTTP/1.1 requires one")
        }
        let lengths = headers.values(for: "Content-Length")
        let encodings = headers.values(for: "Transfer-Encoding")
        if !encodings.isEmpty {
            if !lengths.isEmpty {
                return (400, "the request has both Transfer-Encoding and Content-Length; send only one")
            }
            if httpVersion == "HTTP/1.0" {
                return (400, "Transfer-Encoding is not defined for HTTP/1.0; send Content-Length")
            }
            let codings = encodings.flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            if codings != ["chunked"] {
                return (501, "Transfer-Encoding '\(encodings.joined(separator: ", "))' is not supported; "
                    + "only 'chunked' is")
            }
        }
        if lengths.count > 1 {
            return (400, "the request has \(lengths.count) Content-Length header fields; exactly one is allowed")
        }
        if let length = lengths.first, HTTPHeaders.contentLength(length) == nil {
            return (400, "Content-Length '\(length)' is not a decimal number of bytes")
        }
        return nil
    }

    /// Hands `response` to libmicrohttpd, which copies it (building its body first when it
    /// has a `bodyBuilder`: this is the connection's thread).
    func queue(_ response: HTTPResponse, for context: RequestContext, on connection: OpaquePointer,
               close: Bool) -> MHD_Result {
        let body = response.bodyBuilder?() ?? response.body
        let created = body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
        guard let mhdResponse = created else { return .NO }
        defer { MHD_destroy_response(mhdResponse) }
        for field in response.headers {
            // libmicrohttpd computes the framing fields itself.
            if HTTPHeaders.sameName(field.name, "Content-Length") || HTTPHeaders.sameName(field.name, "Transfer-Encoding") {
                continue
            }
            if MHD_add_response_header(mhdResponse, field.name, field.value) == .NO {
                log(message: "dropped invalid response header field '\(field.name)'")
            }
        }
        if (close || isStopping) && !response.headers.contains("Connection") {
            _ = MHD_add_response_header(mhdResponse, "Connection", "close")
        }
        let result = MHD_queue_response(connection, UInt32(clamping: response.status), mhdResponse)
        if result == .YES { context.status = response.status }
        return result
    }
}

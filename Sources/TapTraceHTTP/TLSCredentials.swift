import CMicroHTTPD
import Foundation

/// A certificate chain and its private key in PEM, for serving HTTPS through libmicrohttpd's
/// own TLS support (GnuTLS in Debian's build).
///
/// The PEM text is kept as C strings for the life of this object: libmicrohttpd reads
/// `MHD_OPTION_HTTPS_MEM_CERT`/`KEY` from the pointers it is given, and the configuration
/// holding this object outlives every daemon started from it.
public final class TLSCredentials: @unchecked Sendable {
    let certificate: UnsafeMutablePointer<CChar>
    let key: UnsafeMutablePointer<CChar>

    /// From PEM text. Throws when either is empty or not PEM (GnuTLS itself checks the rest
    /// when the server starts).
    public init(certificatePEM: String, keyPEM: String) throws {
        guard certificatePEM.contains("-----BEGIN CERTIFICATE-----") else {
            throw TLSCredentialsError(description: "the certificate is not PEM (no '-----BEGIN CERTIFICATE-----' line)")
        }
        guard keyPEM.contains("-----BEGIN") && keyPEM.contains("PRIVATE KEY-----") else {
            throw TLSCredentialsError(description: "the key is not a PEM private key (no '-----BEGIN … PRIVATE KEY-----' line)")
        }
        certificate = strdup(certificatePEM)
        key = strdup(keyPEM)
    }

    /// From PEM files; the error names the file that could not be read.
    public convenience init(certificateFile: String, keyFile: String) throws {
        func read(_ path: String, _ what: String) throws -> String {
            do {
                return try String(contentsOfFile: path, encoding: .utf8)
            } catch {
                throw TLSCredentialsError(description: "cannot read the TLS \(what) \(path): \(error.localizedDescription)")
            }
        }
        try self.init(certificatePEM: read(certificateFile, "certificate"), keyPEM: read(keyFile, "key"))
    }

    deinit {
        free(certificate)
        free(key)
    }

    /// Whether the libmicrohttpd this process linked was built with TLS.
    public static var isSupported: Bool { MHD_is_feature_supported(.FEATURE_TLS) == .YES }
}

/// TLS credentials that cannot be used: a file not readable, or text that is not PEM.
public struct TLSCredentialsError: Error, CustomStringConvertible {
    public let description: String
}

extension HTTPServer {
    /// `MHD_USE_TLS` when the configuration has credentials.
    var tlsFlags: UInt32 { configuration.tls == nil ? 0 : MHD_USE_TLS.rawValue }

    /// The certificate and key options for `MHD_start_daemon_va`, or none.
    var tlsOptions: [any CVarArg] {
        guard let tls = configuration.tls else { return [] }
        return [MHD_OPTION.HTTPS_MEM_KEY.rawValue, OpaquePointer(tls.key),
                MHD_OPTION.HTTPS_MEM_CERT.rawValue, OpaquePointer(tls.certificate)]
    }

    /// Throws before anything is bound when TLS is asked for but libmicrohttpd lacks it.
    func checkTLSSupport() throws {
        if configuration.tls != nil && !TLSCredentials.isSupported {
            throw HTTPServerError.startFailed(
                address: configuration.host, reason: "this libmicrohttpd was built without TLS support"
                    + " (MHD_FEATURE_TLS); install one built with GnuTLS, as Debian's libmicrohttpd12 is")
        }
    }
}

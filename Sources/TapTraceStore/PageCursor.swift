import Foundation

/// The opaque cursor of a newest-first listing.
///
/// A cursor is the `seq` of the last item a page returned; the next page holds the rows
/// with a smaller `seq`. Because `seq` is an AUTOINCREMENT rowid (strictly increasing,
/// never reused), rows inserted between two page requests get larger values and can
/// never shift later pages: no duplicates, no gaps.
///
/// On the wire it is base64url (no padding) of `v1:<listing>:<seq>`, so it is
/// URL-safe and a cursor of one listing is rejected by another.
package struct PageCursor: Equatable {
    package enum Listing: String {
        case scenes
        case runs
    }

    package var listing: Listing
    /// Exclusive upper bound for the next page.
    package var seq: Int64

    package var encoded: String {
        Data("v1:\(listing.rawValue):\(seq)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes `text`, which must have been produced by ``encoded`` for `listing`.
    package init(decoding text: String, for listing: Listing) throws {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard
            let data = Data(base64Encoded: base64),
            let plain = String(data: data, encoding: .utf8)
        else { throw StoreError.invalidCursor(text) }
        let parts = plain.split(separator: ":", omittingEmptySubsequences: false)
        guard
            parts.count == 3, parts[0] == "v1", parts[1] == listing.rawValue,
            let seq = Int64(parts[2]), seq > 0
        else { throw StoreError.invalidCursor(text) }
        self.init(listing: listing, seq: seq)
    }

    package init(listing: Listing, seq: Int64) {
        self.listing = listing
        self.seq = seq
    }
}

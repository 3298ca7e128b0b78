import TapTraceStore

/// What a screenshot's header says: its format and size in pixels, read from the PNG's IHDR
/// chunk or the JPEG's frame header (SOF). The rest of the image is not decoded: the service
/// stores the file and the viewer's browser draws it.
struct ImageHeader: Equatable {
    enum Format: String, CaseIterable {
        case png, jpeg

        /// The media type it is sent and served with.
        var mediaType: String {
            switch self {
            case .png: ScreenshotMediaType.png
            case .jpeg: ScreenshotMediaType.jpeg
            }
        }

        /// Its name in a sentence ("a PNG image").
        var name: String { self == .png ? "PNG" : "JPEG" }
    }

    var format: Format
    var width: Int
    var height: Int

    /// Why the bytes are not a readable image header: a sentence for a problem's detail.
    struct Unreadable: Error, Equatable {
        var reason: String
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The format whose magic bytes `bytes` start with: the PNG signature, or a JPEG's start of
    /// image marker (FF D8) followed by another marker.
    static func sniff(_ bytes: [UInt8]) -> Format? {
        if bytes.starts(with: pngSignature) { return .png }
        if bytes.count >= 3, bytes[0] == 0xFF, bytes[1] == 0xD8, bytes[2] == 0xFF { return .jpeg }
        return nil
    }

    /// Reads the header of an image of `format`.
    static func read(_ bytes: [UInt8], as format: Format) throws(Unreadable) -> ImageHeader {
        switch format {
        case .png: try png(bytes)
        case .jpeg: try jpeg(bytes)
        }
    }

    /// The IHDR chunk, which PNG requires first (PNG spec, 11.2.2): length 13, type, width,
    /// height, bit depth, colour type, compression, filter and interlace method, then its CRC.
    static func png(_ bytes: [UInt8]) throws(Unreadable) -> ImageHeader {
        guard bytes.starts(with: pngSignature) else {
            throw Unreadable(reason: "The body does not start with the PNG signature (89 50 4E 47 0D 0A 1A 0A).")
        }
        guard bytes.count >= 33 else {
            throw Unreadable(reason: "The PNG ends after \(bytes.count) bytes, before its IHDR chunk is complete (33 bytes).")
        }
        let length = bigEndian(bytes, 8, 4)
        let type = Array(bytes[12..<16])
        guard type == Array("IHDR".utf8), length == 13 else {
            throw Unreadable(reason: "The PNG's first chunk must be IHDR with 13 bytes of data; it is \(chunkName(type)) with \(length).")
        }
        guard crc32(bytes[12..<29]) == UInt32(bigEndian(bytes, 29, 4)) else {
            throw Unreadable(reason: "The PNG's IHDR chunk fails its CRC check: the file is damaged.")
        }
        let width = bigEndian(bytes, 16, 4), height = bigEndian(bytes, 20, 4)
        // PNG limits both to 2^31 - 1 and forbids 0.
        guard (1...Int(Int32.max)).contains(width), (1...Int(Int32.max)).contains(height) else {
            throw Unreadable(reason: "The PNG's IHDR gives a size of \(width)×\(height) pixels; both must be from 1 to 2147483647.")
        }
        let depth = bytes[24], colourType = bytes[25]
        let depths: [UInt8: [UInt8]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard depths[colourType]?.contains(depth) == true else {
            throw Unreadable(reason: "The PNG's IHDR gives colour type \(colourType) with bit depth \(depth), which PNG does not allow.")
        }
        return ImageHeader(format: .png, width: width, height: height)
    }

    /// The first frame header (SOF0…SOF15 but DHT, JPG and DAC, which share the range), found by
    /// walking the marker segments after the start of image (ITU T.81, B.1.1): each is FF, the
    /// marker, and (except RSTn and TEM) a two-byte length that counts itself.
    static func jpeg(_ bytes: [UInt8]) throws(Unreadable) -> ImageHeader {
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw Unreadable(reason: "The body does not start with a JPEG's start of image marker (FF D8).")
        }
        var i = 2
        while true {
            guard i < bytes.count else {
                throw Unreadable(reason: "The JPEG ends after \(bytes.count) bytes, before its frame header (SOF) that gives its size.")
            }
            guard bytes[i] == 0xFF else {
                throw Unreadable(reason: "The JPEG has no marker at byte \(i) (found \(hex(bytes[i])) where FF was expected).")
            }
            // Any number of FF fill bytes may precede a marker.
            while i < bytes.count, bytes[i] == 0xFF { i += 1 }
            guard i < bytes.count else {
                throw Unreadable(reason: "The JPEG ends inside a marker at byte \(i).")
            }
            let marker = bytes[i]
            i += 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue  // TEM and RSTn have no length.
            case 0x00, 0xD8:
                throw Unreadable(reason: "The JPEG has an unexpected marker FF \(hex(marker)) at byte \(i - 2).")
            case 0xD9, 0xDA:
                let what = marker == 0xD9 ? "its end (EOI)" : "its image data (SOS)"
                throw Unreadable(reason: "The JPEG reaches \(what) at byte \(i - 2) without a frame header (SOF) that gives its size.")
            default:
                break
            }
            guard i + 2 <= bytes.count else {
                throw Unreadable(reason: "The JPEG ends inside the length of its segment FF \(hex(marker)) at byte \(i - 2).")
            }
            let length = bigEndian(bytes, i, 2)
            guard length >= 2, i + length <= bytes.count else {
                throw Unreadable(reason: "The JPEG's segment FF \(hex(marker)) at byte \(i - 2) claims \(length) bytes; \(bytes.count - i) are left.")
            }
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                // Length, sample precision, lines (height), samples per line (width), components.
                guard length >= 8, bytes[i + 7] >= 1 else {
                    throw Unreadable(reason: "The JPEG's frame header at byte \(i - 2) is too short to give a size.")
                }
                let height = bigEndian(bytes, i + 3, 2), width = bigEndian(bytes, i + 5, 2)
                guard width >= 1 else {
                    throw Unreadable(reason: "The JPEG's frame header gives a width of 0 pixels.")
                }
                guard height >= 1 else {
                    // T.81 lets the height come later, in a DNL segment after the first scan.
                    throw Unreadable(reason: "The JPEG's frame header gives a height of 0 (defined later by a DNL marker), which is not supported; save the image with its height in the frame header.")
                }
                return ImageHeader(format: .jpeg, width: width, height: height)
            }
            i += length
        }
    }

    /// `count` bytes at `offset` as a big-endian unsigned number (the caller checked the bounds).
    private static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }

    /// A chunk type as PNG writes it (four ASCII letters), or its bytes in hex when it is not one.
    private static func chunkName(_ type: [UInt8]) -> String {
        let letters = type.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        return letters ? String(decoding: type, as: UTF8.self) : type.map(hex).joined(separator: " ")
    }

    /// CRC-32 as PNG computes it over a chunk's type and data (ISO 3309, reflected, 0xEDB88320).
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

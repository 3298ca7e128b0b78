import Foundation
@testable import TapTraceService
import Testing

/// Reading a screenshot's format and size from its header, and every way a header is refused.
@Suite struct ImageHeaderTests {
    typealias Unreadable = ImageHeader.Unreadable

    static func reason(_ bytes: [UInt8], as format: ImageHeader.Format) -> String? {
        do {
            _ = try ImageHeader.read(bytes, as: format)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func crcIsPNGs() {
        // The CRC every PNG's IEND chunk carries.
        #expect(ImageHeader.crc32(Array("IEND".utf8)[...]) == 0xAE42_6082)
        #expect(ImageHeader.crc32(Array("IHDR".utf8)[...]) == TestImages.crc32(Array("IHDR".utf8)))
    }

    @Test(arguments: [(1, 1), (390, 844), (1179, 3), (70_000, 2)])
    func pngSizeComesFromIHDR(_ size: (Int, Int)) throws {
        // A large PNG's header only: the rest is never read.
        let header = Array(TestImages.png(width: 1, height: 1).prefix(8)) + TestImages.chunk(
            "IHDR", TestImages.bigEndian(UInt32(size.0)) + TestImages.bigEndian(UInt32(size.1)) + [8, 6, 0, 0, 0])
        #expect(try ImageHeader.read(header, as: .png) == ImageHeader(format: .png, width: size.0, height: size.1))
        #expect(ImageHeader.sniff(header) == .png)
        #expect(try ImageHeader.read(TestImages.png(width: 7, height: 5), as: .png) == ImageHeader(format: .png, width: 7, height: 5))
    }

    @Test func jpegSizeComesFromTheFrameHeader() throws {
        #expect(try ImageHeader.read(TestImages.jpegBaseline39x84, as: .jpeg) == ImageHeader(format: .jpeg, width: 39, height: 84))
        // Progressive (SOF2), after an APP1 (EXIF) segment that is skipped by its length.
        #expect(try ImageHeader.read(TestImages.jpegProgressive52x30, as: .jpeg) == ImageHeader(format: .jpeg, width: 52, height: 30))
        #expect(ImageHeader.sniff(TestImages.jpegBaseline39x84) == .jpeg)
        // Fill bytes before a marker, and RSTn/TEM markers without a length, are allowed.
        let padded = [0xFF, 0xD8, 0xFF, 0xFF, 0xFF, 0x01, 0xFF, 0xD3] + Array(TestImages.jpegBaseline39x84.dropFirst(2))
        #expect(try ImageHeader.read(padded, as: .jpeg) == ImageHeader(format: .jpeg, width: 39, height: 84))
    }

    @Test func sniffingNeedsTheWholeSignature() {
        #expect(ImageHeader.sniff(Array("GIF89a".utf8)) == nil)
        #expect(ImageHeader.sniff([0x89, 0x50, 0x4E, 0x47]) == nil)
        #expect(ImageHeader.sniff([0xFF, 0xD8]) == nil)
        #expect(ImageHeader.sniff([]) == nil)
    }

    @Test func pngHeadersThatAreRefused() throws {
        let good = TestImages.png(width: 4, height: 3)
        #expect(Self.reason(Array("not a png at all, just text".utf8), as: .png)?.contains("PNG signature") == true)
        #expect(Self.reason(Array(good.prefix(20)), as: .png) ==
                "The PNG ends after 20 bytes, before its IHDR chunk is complete (33 bytes).")

        var damaged = good
        damaged[17] ^= 0x01  // a bit of the width flipped: the CRC no longer matches
        #expect(Self.reason(damaged, as: .png) == "The PNG's IHDR chunk fails its CRC check: the file is damaged.")

        let signature = Array(good.prefix(8))
        let gamaFirst = signature + TestImages.chunk("gAMA", [0, 0, 0xB1, 0x8F, 0, 0, 0, 0, 0, 0, 0, 0, 0]) + Array(good.dropFirst(8))
        #expect(Self.reason(gamaFirst, as: .png) == "The PNG's first chunk must be IHDR with 13 bytes of data; it is gAMA with 13.")

        func ihdr(_ width: UInt32, _ height: UInt32, depth: UInt8 = 8, colour: UInt8 = 2) -> [UInt8] {
            signature + TestImages.chunk("IHDR", TestImages.bigEndian(width) + TestImages.bigEndian(height) + [depth, colour, 0, 0, 0])
        }
        #expect(Self.reason(ihdr(0, 10), as: .png) ==
                "The PNG's IHDR gives a size of 0×10 pixels; both must be from 1 to 2147483647.")
        #expect(Self.reason(ihdr(10, 0x8000_0000), as: .png)?.contains("10×2147483648") == true)
        #expect(Self.reason(ihdr(10, 10, depth: 4, colour: 2), as: .png) ==
                "The PNG's IHDR gives colour type 2 with bit depth 4, which PNG does not allow.")
        #expect(Self.reason(ihdr(10, 10, depth: 16, colour: 3), as: .png) != nil)
        #expect(Self.reason(ihdr(10, 10, depth: 1, colour: 0), as: .png) == nil)
    }

    @Test func jpegHeadersThatAreRefused() {
        let good = TestImages.jpegBaseline39x84
        #expect(Self.reason(Array("JFIF but no SOI".utf8), as: .jpeg)?.contains("FF D8") == true)
        #expect(Self.reason([0xFF, 0xD8], as: .jpeg) ==
                "The JPEG ends after 2 bytes, before its frame header (SOF) that gives its size.")
        // Cut inside the first segment (APP0, 16 bytes from byte 2).
        #expect(Self.reason(Array(good.prefix(10)), as: .jpeg) ==
                "The JPEG's segment FF E0 at byte 2 claims 16 bytes; 6 are left.")
        #expect(Self.reason([0xFF, 0xD8, 0x12, 0x34], as: .jpeg) ==
                "The JPEG has no marker at byte 2 (found 12 where FF was expected).")
        #expect(Self.reason([0xFF, 0xD8, 0xFF, 0xDA, 0x00, 0x02], as: .jpeg) ==
                "The JPEG reaches its image data (SOS) at byte 2 without a frame header (SOF) that gives its size.")
        #expect(Self.reason([0xFF, 0xD8, 0xFF, 0xD9], as: .jpeg)?.contains("its end (EOI)") == true)
        #expect(Self.reason([0xFF, 0xD8, 0xFF, 0xE0, 0x00], as: .jpeg)?.contains("ends inside the length") == true)
        #expect(Self.reason([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x01], as: .jpeg)?.contains("claims 1 bytes") == true)
        // DHT (C4) is in the SOF range but is not a frame header: skipped, then the data ends.
        #expect(Self.reason([0xFF, 0xD8, 0xFF, 0xC4, 0x00, 0x02], as: .jpeg)?.contains("before its frame header") == true)

        func sof(height: Int, width: Int) -> [UInt8] {
            [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x0B, 8, UInt8(height >> 8), UInt8(height & 0xFF),
             UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0]
        }
        #expect(throws: Never.self) { try ImageHeader.read(sof(height: 300, width: 200), as: .jpeg) }
        #expect(Self.reason(sof(height: 0, width: 200), as: .jpeg)?.contains("height of 0 (defined later by a DNL marker)") == true)
        #expect(Self.reason(sof(height: 10, width: 0), as: .jpeg) == "The JPEG's frame header gives a width of 0 pixels.")
    }
}

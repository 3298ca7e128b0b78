"""A scene version's screenshot: attached, described with the version, fetched, replaced,
removed; images that are not what they claim are refused."""
import struct
import zlib

import pytest

from taptrace import TapTraceProblem


def png(width, height):
    """A PNG of one colour, `width`×`height` pixels (8-bit RGB)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\x33\x66\xcc" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def test_a_screenshot_goes_with_its_version(taptrace, examples, tmp_path):
    scene = taptrace.upload(examples / "checkout.scene.json")
    assert scene.screenshot is None
    image = png(39, 84)
    shot = taptrace.put_screenshot(scene, image)
    assert (shot.media_type, shot.width, shot.height, shot.size) == ("image/png", 39, 84, len(image))
    assert shot.href == f"/v1/scenes/{scene.id}/versions/1/screenshot"
    assert taptrace.scene(scene.id).screenshot == shot
    assert taptrace.screenshot(scene.id, version=1) == image

    # A file, replacing the first; a second version has none of its own.
    path = tmp_path / "screen.png"
    path.write_bytes(png(78, 168))
    assert taptrace.put_screenshot(scene.id, path).width == 78
    v2 = taptrace.put_version(scene, examples / "checkout-v2.scene.json")
    assert taptrace.scene(v2.id).screenshot is None
    assert taptrace.scene(scene.id, version=1).screenshot.height == 168

    taptrace.delete_screenshot(scene, version=1)
    with pytest.raises(TapTraceProblem) as caught:
        taptrace.screenshot(scene, version=1)
    assert caught.value.status == 404


def test_images_that_are_not_what_they_claim(taptrace, examples):
    scene = taptrace.upload(examples / "checkout.scene.json")
    with pytest.raises(ValueError, match="not a PNG or JPEG"):
        taptrace.put_screenshot(scene, b"GIF89a...")
    with pytest.raises(TapTraceProblem) as caught:
        taptrace.put_screenshot(scene, png(2, 2), media_type="image/jpeg")
    assert caught.value.status == 422
    with pytest.raises(TapTraceProblem) as caught:
        taptrace.put_screenshot(scene, png(2, 2), version=7)
    assert caught.value.status == 404
    assert taptrace.scene(scene).screenshot is None

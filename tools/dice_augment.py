"""Batch augmentation of the face classifier's cached crops, in torch (``tools/train_dice.py``).

Every batch of die crops cut by ``dice_samples.face_cache`` is turned, scaled, shifted, recoloured
and degraded here, so the classifier sees each photographed die under many cameras and lights.
"""

from __future__ import annotations

import math
import sys
from pathlib import Path

import torch
import torch.nn.functional as F

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from dice_samples import CACHE_SPAN  # noqa: E402

from arena_table.vision.nets import CROP, CROP_SPAN, STD_FLOOR  # noqa: E402


# YCbCr-like opponent axes (BGR order) for hue rotation of whole batches.
_OPP = torch.tensor([[0.114, 0.587, 0.299], [0.5, -0.331, -0.169], [-0.081, -0.419, 0.5]])
_OPP_INV = torch.linalg.inv(_OPP)


def augment_faces(x, gen, crop=CROP, span=CROP_SPAN, mild=0.0, glare_streak=0.0):
    """Augment a batch of cached crops (NxCACHExCACHEx3 uint8 tensor) into standardised Nx3xCROPxCROP.

    Geometry: rotation 0-360, mirror, scale -20..+25 %, shift up to 0.12 die side, sometimes a
    lower-resolution camera. Photometry: hue rotation, channel swap, inversion, per-channel
    gain (colour cast), exposure, gamma, a glare spot (a ``glare_streak`` share of them drawn out
    2-6x into a streak), blur, motion blur, sensor noise.
    A ``mild`` share of the batch gets the geometry, exposure and noise only (the die as
    photographed), so the net also fits the real dice's own colours and pip contrast.
    """
    n = x.shape[0]
    gentle = torch.rand(n, generator=gen) < mild
    u = lambda *shape: torch.rand(*shape, generator=gen)  # noqa: E731
    img = x.permute(0, 3, 1, 2).float()
    ang = u(n) * 2 * math.pi
    sc = (0.8 + 0.45 * u(n)) * span / CACHE_SPAN
    flip = torch.where(u(n) < 0.5, -1.0, 1.0)
    shift = (u(n, 2) - 0.5) * 2 * 0.12 * 2 / CACHE_SPAN
    c, s = torch.cos(ang) * sc, torch.sin(ang) * sc
    theta = torch.stack([torch.stack([c * flip, -s, shift[:, 0]], 1), torch.stack([s * flip, c, shift[:, 1]], 1)], 1)
    grid = F.affine_grid(theta, (n, 3, crop, crop), align_corners=False)
    k1 = torch.tensor([0.25, 0.5, 0.25])
    img = F.conv2d(F.pad(img, (1, 1, 1, 1), mode="replicate"), (k1[:, None] * k1[None]).expand(3, 1, 3, 3),
                   groups=3)  # soften before a ~0.7x resample
    out = F.grid_sample(img, grid, mode="bilinear", padding_mode="border", align_corners=False)
    low = (u(n) < 0.3) & ~gentle  # a lower-resolution camera
    if low.any():
        f = float(0.45 + 0.4 * u(1))
        small = F.interpolate(out[low], scale_factor=f, mode="area")
        out[low] = F.interpolate(small, size=(crop, crop), mode="bilinear", align_corners=False)
    # colour: hue rotation in the opponent plane, channel swap, inversion
    hue = u(n) * 2 * math.pi
    rot = torch.zeros(n, 3, 3)
    rot[:, 0, 0] = 1
    rot[:, 1, 1], rot[:, 1, 2], rot[:, 2, 1], rot[:, 2, 2] = torch.cos(hue), -torch.sin(hue), torch.sin(hue), torch.cos(hue)
    sat = 0.6 + 0.8 * u(n)
    rot[:, 1:, 1:] *= sat[:, None, None]
    mix = _OPP_INV @ rot @ _OPP
    keep = (u(n) < 0.4) | gentle
    mix[keep] = torch.eye(3)
    perm = (u(n) < 0.25) & ~gentle
    for i in torch.nonzero(perm).flatten().tolist():
        mix[i] = mix[i][torch.randperm(3, generator=gen)]
    out = torch.einsum("nij,njhw->nihw", mix, out)
    inv = (u(n) < 0.3) & ~gentle
    out[inv] = 255.0 - out[inv]
    cast = torch.where(gentle[:, None, None, None], 0.85 + 0.3 * u(n, 3, 1, 1), 0.55 + 0.9 * u(n, 3, 1, 1))
    out = out * cast * (0.5 + u(n, 1, 1, 1)) + (u(n, 1, 1, 1) - 0.5) * 60
    gam = u(n) < 0.3
    if gam.any():
        g = (0.6 + u(int(gam.sum()), 1, 1, 1))
        out[gam] = 255.0 * (out[gam].clamp(0, 255) / 255.0) ** g
    glare = (u(n) < 0.15) & ~gentle  # a specular spot anywhere on the top face
    if glare.any():
        k = int(glare.sum())
        yy, xx = torch.meshgrid(torch.arange(crop).float(), torch.arange(crop).float(), indexing="ij")
        die = crop / span
        gx, gy = crop / 2 + (u(k, 1, 1) - 0.5) * 0.8 * die, crop / 2 + (u(k, 1, 1) - 0.5) * 0.8 * die
        sig = (0.07 + 0.08 * u(k, 1, 1)) * die
        dx, dy = xx - gx, yy - gy
        if glare_streak > 0:  # a share of the spots drawn out into a streak (a light reflected on a rounded edge)
            ang = u(k, 1, 1) * math.pi
            along, across = dx * torch.cos(ang) + dy * torch.sin(ang), dy * torch.cos(ang) - dx * torch.sin(ang)
            stretch = torch.where(u(k, 1, 1) < glare_streak, 2.0 + 4.0 * u(k, 1, 1), torch.ones(k, 1, 1)).sqrt()
            dist2 = (along / stretch) ** 2 + (across * stretch) ** 2
        else:
            dist2 = dx**2 + dy**2
        w = (0.6 + 0.35 * u(k, 1, 1, 1)) * torch.exp(-dist2 / (2 * sig**2))[:, None]
        out[glare] = out[glare] * (1 - w) + 255.0 * w
    blur = u(n) < 0.25
    if blur.any():
        sigma = float(0.4 + 0.9 * u(1))
        r = torch.arange(-2, 3).float()
        k1 = torch.exp(-r**2 / (2 * sigma**2))
        k1 = k1 / k1.sum()
        ker = (k1[:, None] * k1[None]).expand(3, 1, 5, 5)
        out[blur] = F.conv2d(F.pad(out[blur], (2, 2, 2, 2), mode="replicate"), ker, groups=3)
    mot = (u(n) < 0.08) & ~gentle
    if mot.any():
        ker = torch.zeros(5, 5)
        if u(1) < 0.5:
            ker[2] = 0.2
        else:
            ker[range(5), range(5)] = 0.2
        out[mot] = F.conv2d(F.pad(out[mot], (2, 2, 2, 2), mode="replicate"), ker.expand(3, 1, 5, 5), groups=3)
    noisy = u(n) < 0.4
    out[noisy] += torch.randn(out[noisy].shape, generator=gen) * (1 + 7 * u(int(noisy.sum()), 1, 1, 1))
    out = out.clamp(0, 255)
    mean = out.mean((2, 3), keepdim=True)
    std = out.std((2, 3), keepdim=True, unbiased=False)
    return (out - mean) / (std + STD_FLOOR)

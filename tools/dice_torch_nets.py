"""The dice reader's two CNNs in PyTorch, for training (``tools/train_dice.py``).

The reader runs them exported to ONNX (``arena_table/vision/nets.py``):

* :class:`Detector`: CenterNet-style (Zhou et al. 2019, "Objects as Points"), input 1x3xHxW (H, W
  multiples of 8), output 1x4x(H/4)x(W/4): centre logit, log die side, x/y offset;
* :class:`FaceNet`: the face classifier, input Nx3x40x40, output Nx8 logits (0 no die centred,
  1..6 faces, 7 a die face that is not a d6 pip face).
"""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F


def cbr(i, o, s=1, d=1):
    """3x3 convolution (stride ``s``, dilation ``d``, no bias), BatchNorm, ReLU."""
    return nn.Sequential(nn.Conv2d(i, o, 3, s, d, dilation=d, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class Detector(nn.Module):
    """``slim``: without the second stride-4 convolution and the 3x3 after the fuse (a third fewer
    multiply-adds; fine-tuned from a full model, whose other layers it shares by name)."""

    def __init__(self, slim=False):
        super().__init__()
        self.s2 = cbr(3, 16, 2)
        self.s4 = nn.Sequential(cbr(16, 24, 2)) if slim else nn.Sequential(cbr(16, 24, 2), cbr(24, 24))
        self.s8 = nn.Sequential(cbr(24, 48, 2), cbr(48, 48, d=2), cbr(48, 48, d=4))
        fuse = [nn.Conv2d(72, 24, 1, bias=False), nn.BatchNorm2d(24), nn.ReLU(inplace=True)]
        self.fuse = nn.Sequential(*fuse) if slim else nn.Sequential(*fuse, cbr(24, 24))
        self.head = nn.Conv2d(24, 4, 1)
        nn.init.constant_(self.head.bias, 0.0)
        with torch.no_grad():
            self.head.bias[0] = -2.2

    def forward(self, x):
        a = self.s4(self.s2(x))
        b = self.s8(a)
        up = F.interpolate(b, scale_factor=2.0, mode="nearest")
        return self.head(self.fuse(torch.cat([a, up], 1)))


class FaceNet(nn.Module):
    """``width``: factor on every layer's channels (0.5: a quarter of the multiply-adds)."""

    def __init__(self, classes=8, width=1.0):
        super().__init__()
        a, b, c, d = (max(4, round(k * width)) for k in (16, 32, 64, 128))
        self.f = nn.Sequential(cbr(3, a), cbr(a, b, 2), cbr(b, b), cbr(b, c, 2), cbr(c, c),
                               cbr(c, d, 2), cbr(d, d))
        self.fc = nn.Linear(d, classes)

    def forward(self, x):
        return self.fc(self.f(x).mean((2, 3)))


def facenet_from_onnx(path) -> FaceNet:
    """A :class:`FaceNet` holding the weights of an exported ``dice_face.onnx`` (float, not int8).

    The exporter folds each BatchNorm into its convolution (weights scaled, bias added), so the
    convolutions take the folded weights and each BatchNorm becomes the identity plus that bias
    (running mean 0, variance 1 - eps, scale 1). Fine-tune such a net with its BatchNorms frozen
    (``train_faces(..., freeze_bn=True)``): batch statistics would undo the folding.

    Raises:
        ValueError: the file's initialisers do not fit :class:`FaceNet` (another width or layout).
    """
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    init = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    net = FaceNet()
    blocks = list(net.f)
    if len(convs) != len(blocks) or any(len(n.input) != 3 for n in convs):
        raise ValueError(f"{path}: {len(convs)} convolutions with folded biases expected {len(blocks)}")
    eps_var = {}
    with torch.no_grad():
        for node, block in zip(convs, blocks):
            conv, bn = block[0], block[1]
            w, b = init[node.input[1]], init[node.input[2]]
            if w.shape != conv.weight.shape:
                raise ValueError(f"{path}: convolution {node.input[1]} is {tuple(w.shape)}, "
                                 f"expected {tuple(conv.weight.shape)}")
            conv.weight.copy_(w)
            bn.weight.fill_(1.0)
            bn.bias.copy_(b)
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0 - bn.eps)
            eps_var[node.name] = bn.eps
        net.fc.weight.copy_(init["fc.weight"])
        net.fc.bias.copy_(init["fc.bias"])
    return net


def export_onnx(net, path, shape, dynamic=None, output="output", labels=None):
    """Write ``net`` to ``path`` as ONNX (opset 13, input ``input``, output ``output``), traced on a
    zero tensor of ``shape``; ``dynamic``: torch's ``dynamic_axes``. ``labels``: ``(key, [names])``
    stored as a JSON metadata entry (the reader's class list, ``vision/labelled_net.py``)."""
    dummy = torch.zeros(*shape)
    kw = dict(input_names=["input"], output_names=[output], opset_version=13)
    if dynamic:
        kw["dynamic_axes"] = dynamic
    try:
        torch.onnx.export(net, dummy, str(path), dynamo=False, **kw)
    except TypeError:
        torch.onnx.export(net, dummy, str(path), **kw)
    if labels:
        import json

        import onnx

        model = onnx.load(str(path))
        entry = model.metadata_props.add()
        entry.key, entry.value = labels[0], json.dumps(list(labels[1]))
        onnx.save(model, str(path))

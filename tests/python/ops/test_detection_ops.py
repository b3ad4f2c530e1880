"""The detection ops beyond what the harness checks (op_db_detection.py): the legacy op types,
slots and attribute names their static programs hold, programs as PaddlePaddle writes them (slots
it leaves out, yolov3_loss_grad), a saved inference model of a YOLO post-process, the values
Paddle returns for empty results, and what the Python APIs return."""
import numpy as np
import pytest

import paddle
import paddle.vision.ops as V
from detection_reference import (np_distribute_fpn_proposals, np_multiclass_nms3, np_yolo_box,
                                 np_yolo_loss)
from op_db_detection import ANCHORS, ground_truth, rand_boxes, rpn_inputs
from paddle import _C_ops
from static_testing import new_programs, static_mode

RNG = np.random.default_rng(7)
EXE = paddle.static.Executor(paddle.CPUPlace())


def _ops_of(build, *shapes_and_dtypes):
    """The ops of a program whose inputs have the given (shape, dtype), built by build(*inputs),
    by type."""
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            data = [paddle.static.data(f"in{k}", shape, dtype)
                    for k, (shape, dtype) in enumerate(shapes_and_dtypes)]
            build(*data)
        return {op.type: op for op in main.global_block().ops}


def test_programs_hold_paddles_legacy_op_types_slots_and_attributes():
    ops = _ops_of(lambda x, size: V.yolo_box(x, size, [10, 13], 2, 0.1, 8, iou_aware=True),
                  ([-1, 8, 4, 4], "float32"), ([-1, 2], "int32"))
    yolo_box = ops["yolo_box"]
    assert yolo_box.input("X") and yolo_box.input("ImgSize")
    assert yolo_box.output("Boxes") and yolo_box.output("Scores")
    assert (yolo_box.attr("anchors"), yolo_box.attr("class_num"), yolo_box.attr("iou_aware"),
            yolo_box.attr("downsample_ratio")) == ([10, 13], 2, True, 8)

    ops = _ops_of(lambda x, gt, label: V.yolo_loss(x, gt, label, ANCHORS, [1, 2], 3, 0.5, 8),
                  ([-1, 16, 4, 4], "float32"), ([-1, 4, 4], "float32"), ([-1, 4], "int32"))
    loss = ops["yolov3_loss"]
    assert loss.input("GTBox") and loss.input("GTLabel") and not loss.input("GTScore")
    assert loss.output("Loss") and loss.output("ObjectnessMask") and loss.output("GTMatchMask")
    assert (loss.attr("anchor_mask"), loss.attr("use_label_smooth")) == ([1, 2], True)

    ops = _ops_of(lambda feature, image: V.prior_box(feature, image, [2.0], steps=[4.0, 8.0]),
                  ([1, 3, 4, 4], "float32"), ([1, 3, 16, 16], "float32"))
    prior = ops["prior_box"]
    assert prior.input("Input") and prior.input("Image")
    assert prior.output("Boxes") and prior.output("Variances")
    assert (prior.attr("min_sizes"), prior.attr("step_w"), prior.attr("step_h")) == ([2.0], 4.0, 8.0)
    assert prior.attr("variances") == pytest.approx([0.1, 0.1, 0.2, 0.2])

    ops = _ops_of(lambda prior, target: V.box_coder(prior, [0.1, 0.1, 0.2, 0.2], target),
                  ([5, 4], "float32"), ([3, 4], "float32"))
    coder = ops["box_coder"]
    assert coder.input("PriorBox") and coder.input("TargetBox") and not coder.input("PriorBoxVar")
    assert coder.output("OutputBox") and coder.attr("code_type") == "encode_center_size"
    assert coder.attr("variance") == pytest.approx([0.1, 0.1, 0.2, 0.2])

    ops = _ops_of(lambda boxes: V.nms(boxes, 0.4), ([-1, 4], "float32"))
    assert ops["nms"].input("Boxes") and ops["nms"].output("KeepBoxesIdxs")
    assert ops["nms"].attr("iou_threshold") == pytest.approx(0.4)

    ops = _ops_of(lambda b, s, n: _C_ops.multiclass_nms3(b, s, n, 0.1, 10, 5, 0.3, True, 1.0, 0),
                  ([-1, 3, 4], "float32"), ([-1, 3], "float32"), ([-1], "int32"))
    nms3 = ops["multiclass_nms3"]
    assert nms3.input("BBoxes") and nms3.input("Scores") and nms3.input("RoisNum")
    assert nms3.output("Out") and nms3.output("Index") and nms3.output("NmsRoisNum")
    assert (nms3.attr("nms_top_k"), nms3.attr("keep_top_k"), nms3.attr("background_label")) == (
        10, 5, 0)

    ops = _ops_of(lambda b, s: V.matrix_nms(b, s, 0.1, 0.2, 10, 5, use_gaussian=True),
                  ([-1, 6, 4], "float32"), ([-1, 3, 6], "float32"))
    matrix = ops["matrix_nms"]
    assert matrix.output("Out") and matrix.output("Index") and matrix.output("RoisNum")
    assert (matrix.attr("use_gaussian"), matrix.attr("post_threshold")) == (True, pytest.approx(0.2))

    ops = _ops_of(lambda rois, num: V.distribute_fpn_proposals(rois, 2, 5, 4, 224, rois_num=num),
                  ([-1, 4], "float32"), ([-1], "int32"))
    distribute = ops["distribute_fpn_proposals"]
    assert len(distribute.output("MultiFpnRois")) == 4
    assert len(distribute.output("MultiLevelRoIsNum")) == 4 and distribute.output("RestoreIndex")
    assert (distribute.attr("refer_level"), distribute.attr("refer_scale")) == (4, 224)

    ops = _ops_of(lambda s, d, i, a, v: V.generate_proposals(s, d, i, a, v, pre_nms_top_n=100,
                                                             post_nms_top_n=20),
                  ([-1, 3, 4, 4], "float32"), ([-1, 12, 4, 4], "float32"), ([-1, 2], "float32"),
                  ([4, 4, 3, 4], "float32"), ([4, 4, 3, 4], "float32"))
    proposals = ops["generate_proposals_v2"]
    assert proposals.input("BboxDeltas") and proposals.input("ImShape")
    assert proposals.output("RpnRois") and proposals.output("RpnRoiProbs")
    assert (proposals.attr("pre_nms_topN"), proposals.attr("post_nms_topN")) == (100, 20)

    ops = _ops_of(lambda x, y, boxes, info: [_C_ops.iou_similarity(x, y, False),
                                             _C_ops.box_clip(boxes, info)],
                  ([-1, 4], "float32"), ([3, 4], "float32"), ([2, -1, 4], "float32"),
                  ([2, 3], "float32"))
    assert ops["iou_similarity"].input("X") and ops["iou_similarity"].output("Out")
    assert ops["iou_similarity"].attr("box_normalized") is False
    assert ops["box_clip"].input("ImInfo") and ops["box_clip"].output("Output")


def _append_and_run(op_type, inputs, outputs, attrs):
    """Runs one op as a PaddlePaddle program writes it: `inputs` maps slots to arrays,
    `outputs` slots to [(shape, dtype)] of their variables. Returns the outputs by slot."""
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            block = main.global_block()
            feeds, data = {}, {}
            for slot, array in inputs.items():
                name = slot.lower()
                data[slot] = [paddle.static.data(name, list(array.shape), array.dtype.name)]
                feeds[name] = array
            results = {slot: [block.create_var(name=f"{slot}_{k}", shape=shape, dtype=dtype)
                              for k, (shape, dtype) in enumerate(variables)]
                       for slot, variables in outputs.items()}
            block.append_op(op_type, inputs=data, outputs=results, attrs=attrs)
        fetch = [v for slot in outputs for v in results[slot]]
        values = iter(EXE.run(main, feed=feeds, fetch_list=fetch))
        return {slot: [next(values) for _ in results[slot]] for slot in outputs}


def test_programs_as_paddle_writes_them_run():
    # distribute_fpn_proposals without RoisNum has no MultiLevelRoIsNum outputs.
    rois = (rand_boxes(RNG, 6, 50.0, 5.0, 400.0)).astype(np.float32)
    attrs = {"min_level": 2, "max_level": 5, "refer_level": 4, "refer_scale": 224,
             "pixel_offset": False}
    got = _append_and_run("distribute_fpn_proposals", {"FpnRois": rois},
                          {"MultiFpnRois": [([-1, 4], "float32")] * 4,
                           "RestoreIndex": [([-1, 1], "int32")]}, attrs)
    expected = np_distribute_fpn_proposals(rois.astype(np.float64), 2, 5, 4, 224)
    for g, e in zip(got["MultiFpnRois"] + got["RestoreIndex"], expected):
        np.testing.assert_allclose(g, e, rtol=1e-6)
    with pytest.raises(ValueError, match="one per level"):
        _append_and_run("distribute_fpn_proposals", {"FpnRois": rois},
                        {"MultiFpnRois": [([-1, 4], "float32")] * 3,
                         "RestoreIndex": [([-1, 1], "int32")]}, attrs)

    # multiclass_nms3 over a batch, without RoisNum and without the NmsRoisNum output; Paddle's
    # static API declares ObjectnessMask of yolov3_loss int32, which the op writes as floats.
    boxes = np.stack([rand_boxes(RNG, 5, 6.0) for _ in range(2)]).astype(np.float32)
    scores = RNG.uniform(0, 1, (2, 3, 5)).astype(np.float32)
    got = _append_and_run("multiclass_nms3", {"BBoxes": boxes, "Scores": scores},
                          {"Out": [([-1, 6], "float32")], "Index": [([-1, 1], "int32")]},
                          {"score_threshold": 0.2, "nms_top_k": 4, "keep_top_k": 6,
                           "nms_threshold": 0.3, "normalized": True, "nms_eta": 1.0,
                           "background_label": 0})
    out, index, _ = np_multiclass_nms3(boxes.astype(np.float64), scores.astype(np.float64),
                                       score_threshold=0.2, nms_top_k=4, keep_top_k=6)
    np.testing.assert_allclose(got["Out"][0], out, rtol=1e-6)
    np.testing.assert_array_equal(got["Index"][0], index)

    x = RNG.uniform(-1, 1, (2, 16, 4, 4)).astype(np.float32)
    gt, label = ground_truth(RNG, 2, 4, 3)
    got = _append_and_run("yolov3_loss", {"X": x, "GTBox": gt.astype(np.float32),
                                          "GTLabel": label},
                          {"Loss": [([-1], "float32")], "ObjectnessMask": [([-1], "int32")],
                           "GTMatchMask": [([-1], "int32")]},
                          {"anchors": ANCHORS, "anchor_mask": [1, 2], "class_num": 3,
                           "ignore_thresh": 0.5, "downsample_ratio": 8})
    expected = np_yolo_loss(x.astype(np.float64), gt.astype(np.float32).astype(np.float64), label,
                            ANCHORS, [1, 2], 3, 0.5, 8)
    np.testing.assert_allclose(got["Loss"][0], expected, rtol=1e-5)


def test_yolov3_loss_gradient_in_a_program_matches_dygraph():
    x = RNG.uniform(-1, 1, (2, 16, 4, 4))
    gt, label = ground_truth(RNG, 2, 4, 3)
    score = RNG.uniform(0.5, 1, (2, 4))
    args = (ANCHORS, [1, 2], 3, 0.5, 8)
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            data = paddle.static.data("x", [-1, 16, 4, 4], "float64")
            data.stop_gradient = False
            loss = V.yolo_loss(data, paddle.static.data("gt", [-1, 4, 4], "float64"),
                               paddle.static.data("label", [-1, 4], "int32"), *args,
                               gt_score=paddle.static.data("score", [-1, 4], "float64"))
            grad, = paddle.static.gradients([paddle.sum(loss)], [data])
        types = [op.type for op in main.global_block().ops]
        got, = EXE.run(main, feed={"x": x, "gt": gt, "label": label, "score": score},
                       fetch_list=[grad])
    assert "yolov3_loss_grad" in types, types
    tensor = paddle.to_tensor(x, stop_gradient=False)
    V.yolo_loss(tensor, paddle.to_tensor(gt), paddle.to_tensor(label), *args,
                gt_score=paddle.to_tensor(score)).sum().backward()
    np.testing.assert_allclose(got, tensor.grad.numpy(), rtol=1e-12)


def test_yolo_loss_gradient_sums_the_ground_truths_sharing_a_cell():
    """Two ground truths centered in one cell and matched to one anchor both add their terms to
    the loss, so to its gradient (Paddle's kernel keeps only the last one's)."""
    x = RNG.uniform(-1, 1, (1, 2 * 6, 2, 2))
    gt = np.asarray([[[0.2, 0.2, 0.30, 0.35], [0.3, 0.1, 0.32, 0.3]]])
    label = np.asarray([[0, 0]], dtype=np.int32)
    args = ([10, 13, 16, 30], [0, 1], 1, 0.9, 32)
    tensor = paddle.to_tensor(x, stop_gradient=False)
    V.yolo_loss(tensor, paddle.to_tensor(gt), paddle.to_tensor(label), *args).sum().backward()
    eps = 1e-6
    numeric = np.zeros_like(x)
    for k in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[k] += eps
        minus[k] -= eps
        numeric[k] = (np_yolo_loss(plus, gt, label, *args).sum() -
                      np_yolo_loss(minus, gt, label, *args).sum()) / (2 * eps)
    np.testing.assert_allclose(tensor.grad.numpy(), numeric, atol=1e-6)


@pytest.mark.filterwarnings("ignore:no variable in your model")  # a post-process has no weights
def test_saved_inference_model_of_a_yolo_post_process_round_trips(tmp_path):
    """yolo_box then multiclass_nms3, as exported detectors end."""
    x = RNG.uniform(-2, 2, (2, 2 * 7, 4, 4)).astype(np.float32)
    size = np.asarray([[64, 64], [48, 32]], dtype=np.int32)
    prefix = str(tmp_path / "yolo")
    with static_mode():
        main, startup = new_programs()
        with paddle.static.program_guard(main, startup):
            head = paddle.static.data("head", [-1, 14, 4, 4], "float32")
            image = paddle.static.data("size", [-1, 2], "int32")
            boxes, scores = V.yolo_box(head, image, [10, 13, 16, 30], 2, 0.05, 16)
            out, _, num = _C_ops.multiclass_nms3(boxes, paddle.transpose(scores, [0, 2, 1]), None,
                                                 0.05, 20, 10, 0.45, False, 1.0, -1)
        EXE.run(startup)
        expected = EXE.run(main, feed={"head": x, "size": size}, fetch_list=[out, num])
        paddle.static.save_inference_model(prefix, [head, image], [out, num], EXE, program=main)
        program, feeds, fetches = paddle.static.load_inference_model(prefix, EXE)
        types = {op.type for op in program.global_block().ops}
        got = EXE.run(program, feed=dict(zip(feeds, [x, size])), fetch_list=fetches)
    assert {"yolo_box", "multiclass_nms3"} <= types, types
    ref_boxes, ref_scores = np_yolo_box(x.astype(np.float64), size, [10, 13, 16, 30], 2, 0.05, 16)
    ref_out, _, ref_num = np_multiclass_nms3(ref_boxes, ref_scores.transpose(0, 2, 1), None, 0.05,
                                             20, 10, 0.45, False, 1.0, -1)
    np.testing.assert_allclose(expected[0], ref_out, rtol=1e-4, atol=1e-4)
    np.testing.assert_array_equal(expected[1], ref_num)
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)


def test_empty_results_take_paddles_shapes():
    boxes = paddle.to_tensor(np.stack([rand_boxes(RNG, 4)] * 2))
    quiet = paddle.full([2, 3, 4], 0.01, dtype="float64")
    out, index, num = _C_ops.multiclass_nms3(boxes, quiet, None, 0.5, 10, 5, 0.3, True, 1.0, 0)
    assert (out.shape, index.shape, num.tolist()) == ([0, 6], [0, 1], [0, 0])
    assert (out.dtype, index.dtype, num.dtype) == (paddle.float64, paddle.int32, paddle.int32)
    out, num, index = V.matrix_nms(boxes, quiet, 0.5, 0.1, 10, 5, return_index=True)
    assert (out.shape, index.shape, num.tolist()) == ([0, 6], [0, 1], [0, 0])
    assert V.nms(paddle.zeros([0, 4])).shape == [0]
    # An image all of whose proposals are too small keeps one zero box scoring 0.
    scores, deltas, anchors, variances = (paddle.to_tensor(a) for a in rpn_inputs(RNG, 2, 2, 3, 3))
    rois, probs, num = V.generate_proposals(scores, deltas, paddle.to_tensor([[48.0, 48.0]] * 2),
                                            anchors, variances, min_size=1000.0,
                                            return_rois_num=True)
    assert rois.tolist() == [[0.0] * 4] * 2 and probs.tolist() == [[0.0]] * 2
    assert num.tolist() == [1, 1]


def test_python_apis_return_what_paddle_returns():
    boxes = paddle.to_tensor(np.stack([rand_boxes(RNG, 5)] * 2))
    scores = paddle.to_tensor(RNG.uniform(0, 1, (2, 3, 5)))
    out, rois_num, index = V.matrix_nms(boxes, scores, 0.1, 0.1, 10, 5)
    assert index is None and rois_num.shape == [2] and out.shape[1] == 6
    out, rois_num, index = V.matrix_nms(boxes, scores, 0.1, 0.1, 10, 5, return_index=True,
                                        return_rois_num=False)
    assert rois_num is None and index.shape == [out.shape[0], 1]

    rois = paddle.to_tensor(rand_boxes(RNG, 6, 50.0, 5.0, 400.0))
    multi, restore, per_level = V.distribute_fpn_proposals(rois, 2, 5, 4, 224)
    assert len(multi) == 4 and restore.shape == [6, 1] and per_level is None
    multi, restore, per_level = V.distribute_fpn_proposals(
        rois, 2, 5, 4, 224, rois_num=paddle.to_tensor([2, 4], dtype="int32"))
    assert [t.shape for t in per_level] == [[2]] * 4
    assert sum(int(t.sum()) for t in per_level) == 6

    inputs = [paddle.to_tensor(a) for a in rpn_inputs(RNG, 1, 2, 3, 3)]
    rois, probs, num = V.generate_proposals(inputs[0], inputs[1], paddle.to_tensor([[48.0, 48.0]]),
                                            inputs[2], inputs[3])
    assert num is None and rois.shape[0] == probs.shape[0]

    # prior_box takes scalars for its sizes and ratios; a max size of 0 means none.
    feature, image = paddle.rand([1, 2, 2, 3]), paddle.rand([1, 2, 8, 12])
    box, var = V.prior_box(feature, image, 2.0, max_sizes=0.0, aspect_ratios=2.0, flip=True)
    assert box.shape == [2, 3, 3, 4] and var.shape == [2, 3, 3, 4]

    # nms applies top_k only with categories, as Paddle does.
    boxes = paddle.to_tensor(rand_boxes(RNG, 6, 20.0))
    scores = paddle.to_tensor(RNG.uniform(0, 1, 6))
    assert V.nms(boxes, 0.3, scores, top_k=2).shape[0] > 2


def test_yolo_box_drops_low_confidence_boxes_and_clips_to_the_image():
    x = RNG.uniform(-3, 3, (1, 7, 3, 3))
    size = np.asarray([[20, 30]], dtype=np.int32)
    boxes, scores = V.yolo_box(paddle.to_tensor(x), paddle.to_tensor(size), [40, 50], 2, 0.5, 8)
    conf = 1 / (1 + np.exp(-x[0, 4].reshape(-1)))
    dropped = conf < 0.5
    assert dropped.any() and not dropped.all()
    assert not boxes.numpy()[0][dropped].any() and not scores.numpy()[0][dropped].any()
    kept = boxes.numpy()[0][~dropped]
    assert kept.min() >= 0 and kept[:, 2].max() <= 29 and kept[:, 3].max() <= 19

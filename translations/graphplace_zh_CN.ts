<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>AppOptions</name>
    <message>
        <location filename="../app/desktop/app_options.cpp" line="+23"/>
        <source>graphplace: place the ops of a model&apos;s graph on a GPU cluster, measure and compare.</source>
        <translation>graphplace：将模型计算图中的算子放置到 GPU 集群上，进行测量与比较。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Model file (.onnx, .pt, .dot, .json) or zoo:NAME.</source>
        <translation>模型文件（.onnx、.pt、.dot、.json）或 zoo:NAME。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cluster preset, N servers of one (128x8xH100-IB), JSON file, or cpu (this machine).</source>
        <translation>集群预设、N 台同款服务器（128x8xH100-IB）、JSON 文件，或 cpu（本机）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Placement file to apply.</source>
        <translation>要应用的放置文件。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Graph mode: inference or training.</source>
        <translation>计算图模式：inference（推理）或 training（训练）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Apply a placement file made for another version of the model.</source>
        <translation>应用为该模型其他版本生成的放置文件。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open, lay out, measure, save a PNG of the window and exit.</source>
        <translation>打开、布局、测量，将窗口保存为 PNG 后退出。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Window size for --screenshot.</source>
        <translation>--screenshot 的窗口尺寸。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>User interface language (en, zh_CN, ko_KR).</source>
        <translation>界面语言（en、zh_CN、ko_KR）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Value of a symbolic input dimension of an ONNX model (e.g. batch_size=8; default 1). Repeatable.</source>
        <translation>ONNX 模型符号输入维度的取值（例如 batch_size=8；默认 1）。可重复指定。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Arithmetic the model runs with: fp32, tf32, fp16, bf16 or fp8 (fp16, bf16, fp8: mixed precision).</source>
        <translation>模型运行所用的算术精度：fp32、tf32、fp16、bf16 或 fp8（fp16、bf16、fp8 为混合精度）。</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <location filename="../app/desktop/language.cpp" line="+12"/>
        <source>System default</source>
        <translation>系统默认</translation>
    </message>
</context>
<context>
    <name>LaunchFormat</name>
    <message>
        <location filename="../core/launch/launch_formats.cpp" line="+30"/>
        <source>Megatron-LM arguments</source>
        <translation>Megatron-LM 参数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>NeMo 2.0 recipe overrides</source>
        <translation>NeMo 2.0 配方覆盖项</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>NeMo 1.x configuration</source>
        <translation>NeMo 1.x 配置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>torchtitan configuration</source>
        <translation>torchtitan 配置</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>torchtitan Python configuration and schedule</source>
        <translation>torchtitan Python 配置与调度表</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>DeepSpeed configuration</source>
        <translation>DeepSpeed 配置</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../app/desktop/background_job.h" line="+65"/>
        <source>out of memory</source>
        <translation>内存不足</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>unknown error</source>
        <translation>未知错误</translation>
    </message>
    <message>
        <location filename="../app/desktop/exporter.cpp" line="+33"/>
        <source>no model is open</source>
        <translation>未打开模型</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>nothing to draw</source>
        <translation>没有可绘制的内容</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>cannot write images of type “%1”</source>
        <translation>无法写入“%1”类型的图像</translation>
    </message>
    <message>
        <location filename="../app/desktop/plan_commands.cpp" line="+16"/>
        <source>Move %1 to %2</source>
        <translation>将 %1 移至 %2</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Move %n ops to %1</source>
        <translation>
            <numerusform>将 %n 个算子移至 %1</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/desktop/import_notice.cpp" line="+52"/>
        <source>Symbolic Dimensions</source>
        <translation>符号维度</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The model&apos;s inputs have named dimensions without a value. The model reopens with these values (a dimension left at its default counts as 1).</source>
        <translation>模型的输入含有未给定取值的命名维度。模型将以这些取值重新打开（保持默认的维度按 1 计算）。</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 (default 1):</source>
        <translation>%1（默认 1）：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reopen</source>
        <translation>重新打开</translation>
    </message>
    <message>
        <location filename="../app/desktop/parallel_export.cpp" line="+23"/>
        <location line="+35"/>
        <location line="+15"/>
        <source>no parallel plan is shown</source>
        <translation>没有显示并行方案</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>the file trains in %1 (%2), this view simulates %3; graphplace-cli parallelize --config simulates it in the file&apos;s</source>
        <translation>该文件以 %1 (%2) 训练，此视图按 %3 模拟；graphplace-cli parallelize --config 按文件的精度模拟</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Import %1</source>
        <translation>导入 %1</translation>
    </message>
</context>
<context>
    <name>gp::ClusterPanel</name>
    <message>
        <location filename="../widgets/panels/cluster_panel.cpp" line="+40"/>
        <source>Cluster preset</source>
        <translation>集群预设</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Load…</source>
        <translation>加载…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Load a cluster description (.json)</source>
        <translation>加载集群描述文件（.json）</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Step time</source>
        <translation>单步时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lower bound</source>
        <translation>下界</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ratio</source>
        <translation>比值</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Transfers</source>
        <translation>传输量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>%1 (file)</source>
        <translation>%1（文件）</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>&lt;b&gt;%1 × %2&lt;/b&gt;&lt;br&gt;%3 · %4 TFLOPS f32 · %5 TFLOPS f16</source>
        <translation>&lt;b&gt;%1 × %2&lt;/b&gt;&lt;br&gt;%3 · %4 TFLOPS f32 · %5 TFLOPS f16</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 · %2 µs per op · %3 kept</source>
        <translation>%1 · 每个算子 %2 µs · 保留 %3</translation>
    </message>
    <message>
        <location line="+20"/>
        <location line="+15"/>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <location line="-17"/>
        <location line="+1"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 × the lower bound</source>
        <translation>下界的 %1 倍</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>✓ Feasible</source>
        <translation>✓ 可行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>✗ Not feasible</source>
        <translation>✗ 不可行</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>✗ %1</source>
        <translation>✗ %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Not measured</source>
        <translation>未测量</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Load cluster</source>
        <translation>加载集群</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cluster descriptions (*.json);;All files (*)</source>
        <translation>集群描述文件 (*.json);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>gp::CostModelSession</name>
    <message>
        <location filename="../app/desktop/cost_model_session.cpp" line="+105"/>
        <source>A measurement is already running</source>
        <translation>已有测量正在运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No model is open</source>
        <translation>没有打开的模型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The shipped learned model %1 is missing (resources/costmodels): choose one with Learned Model…</source>
        <translation>缺少随附的学习模型 %1（resources/costmodels）：请用“学习模型…”选择一个</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The shipped roofline %1 is missing (resources/costmodels): choose one with Roofline…</source>
        <translation>缺少随附的 Roofline %1（resources/costmodels）：请用“Roofline…”选择一个</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: no such file</source>
        <translation>%1：文件不存在</translation>
    </message>
</context>
<context>
    <name>gp::CostModelWindow</name>
    <message>
        <location filename="../app/desktop/cost_model_window.cpp" line="+52"/>
        <source>threads %1 · layout %2 · tiles %3</source>
        <translation>线程 %1 · 布局 %2 · 分块 %3</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>missing</source>
        <translation>缺失</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (shipped)</source>
        <translation>%1（随附）</translation>
    </message>
    <message>
        <location line="+14"/>
        <location line="+103"/>
        <source>Cost Model</source>
        <translation>成本模型</translation>
    </message>
    <message>
        <location line="-72"/>
        <source>Kendall&apos;s τ (−1…1) and ordered-pair accuracy (OPA, 0…1) say how well each model orders the configurations of one kernel (threads, layout, tiles), averaged over the kernels; 1 is a perfect order. Points on the dashed line are exact; above it, a model predicts slower than measured.</source>
        <translation>Kendall τ（−1…1）和有序对准确率（OPA，0…1）衡量每个模型对同一内核各配置（线程、布局、分块）的排序好坏，按内核取平均；1 表示顺序完全正确。虚线上的点预测精确；虚线上方的点表示模型预测得比实测慢。</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Measuring kernel %1 of %2 on this CPU…</source>
        <translation>正在本机 CPU 上测量第 %1 个内核（共 %2 个）…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Predicting %1 kernels with both models…</source>
        <translation>正在用两个模型预测 %1 个内核…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Stopped; nothing was predicted.</source>
        <translation>已停止；未做任何预测。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: kernels on this CPU</source>
        <translation>%1：本机 CPU 上的内核</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measure times up to %1 kernels of the model on this CPU and predicts them with both models.</source>
        <translation>“测量”会在本机 CPU 上为模型的至多 %1 个内核计时，并用两个模型预测它们。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Measure</source>
        <translation>测量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time the model&apos;s kernels on this CPU in the background and predict them with both models</source>
        <translation>在后台于本机 CPU 上为模型的内核计时，并用两个模型预测</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Stop measuring</source>
        <translation>停止测量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Learned Model…</source>
        <translation>学习模型…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Predict with another learned kernel model (graphplace-cli costmodel train --out)</source>
        <translation>用另一个学习得到的内核模型预测（graphplace-cli costmodel train --out）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roofline…</source>
        <translation>Roofline…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compare with another fitted roofline (graphplace-cli costmodel train --roofline-out)</source>
        <translation>与另一个拟合的 Roofline 比较（graphplace-cli costmodel train --roofline-out）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shipped Models</source>
        <translation>随附模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use the models shipped in resources/costmodels again</source>
        <translation>重新使用 resources/costmodels 中随附的模型</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Kernels </source>
        <translation>内核数 </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The most distinct kernels measured, evenly spaced over the model</source>
        <translation>最多测量的不同内核数，在模型中均匀选取</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>  Repeats </source>
        <translation>  重复次数 </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Timed runs per configuration; the median is kept</source>
        <translation>每个配置的计时运行次数；取中位数</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Cost Model</source>
        <translation>成本模型(&amp;C)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cost Model — %1</source>
        <translation>成本模型 — %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Learned model: %1 · Fitted roofline: %2</source>
        <translation>学习模型：%1 · 拟合的 Roofline：%2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Learned Kernel Model</source>
        <translation>学习的内核模型</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Learned cost models (*.pt)</source>
        <translation>学习的成本模型 (*.pt)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fitted Roofline</source>
        <translation>拟合的 Roofline</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Fitted rooflines (*.json)</source>
        <translation>拟合的 Roofline (*.json)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Measuring the model&apos;s kernels on this CPU…</source>
        <translation>正在本机 CPU 上测量模型的内核…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: kernels on %2</source>
        <translation>%1：%2 上的内核</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Kendall&apos;s τ</source>
        <translation>Kendall τ</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>OPA</source>
        <translation>OPA</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>learned model</source>
        <translation>学习模型</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>fitted roofline</source>
        <translation>拟合的 Roofline</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 kernels, %2 samples (kernel × configuration) measured and predicted in %3 s; hover a point for its kernel.</source>
        <translation>已在 %3 秒内测量并预测 %1 个内核、%2 个样本（内核 × 配置）；将鼠标悬停在点上可查看其内核。</translation>
    </message>
</context>
<context>
    <name>gp::CostScatterPlot</name>
    <message>
        <location filename="../widgets/costmodel/cost_scatter_plot.cpp" line="+50"/>
        <source>y = x (exact)</source>
        <translation>y = x（精确）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>learned model</source>
        <translation>学习模型</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>fitted roofline</source>
        <translation>拟合的 Roofline</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>measured time on this CPU</source>
        <translation>本机 CPU 上的实测时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>predicted time</source>
        <translation>预测时间</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 ns</source>
        <translation>%1 ns</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>measured: %1</source>
        <translation>实测：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>learned model: %1 (%2)</source>
        <translation>学习模型：%1（%2）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>fitted roofline: %1 (%2)</source>
        <translation>拟合的 Roofline：%1（%2）</translation>
    </message>
</context>
<context>
    <name>gp::DeviceLegend</name>
    <message numerus="yes">
        <location filename="../widgets/panels/device_legend.cpp" line="+134"/>
        <location line="+7"/>
        <location line="+37"/>
        <location line="+14"/>
        <source>%Ln ops</source>
        <translation>
            <numerusform>%Ln 个算子</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-52"/>
        <location line="+37"/>
        <source>%Ln devices</source>
        <translation>
            <numerusform>%Ln 个设备</numerusform>
        </translation>
    </message>
    <message>
        <location line="+172"/>
        <source>%1: %2 devices, %3 ops (%4 %)
Click to hide its devices.</source>
        <translation>%1：%2 个设备，%3 个算子（%4 %）
点击以隐藏其设备。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: %2 devices, %3 ops (%4 %)
Click to show its devices.</source>
        <translation>%1：%2 个设备，%3 个算子（%4 %）
点击以显示其设备。</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1: %2 ops (%3 %)
Drop ops here to move them to %1; double-click to select its ops.</source>
        <translation>%1：%2 个算子（%3%）
将算子拖放到此处可将其移至 %1；双击可选中其全部算子。</translation>
    </message>
</context>
<context>
    <name>gp::DeviceMemoryPanel</name>
    <message>
        <location filename="../widgets/parallel/device_memory_panel.cpp" line="+36"/>
        <source>not used by the plan</source>
        <translation>计划未使用</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>stage %1: weights %2 · gradients %3 · optimizer state %4 · activations %5 · NCCL buffers %6 · cuBLAS workspaces %7</source>
        <translation>阶段 %1：权重 %2 · 梯度 %3 · 优化器状态 %4 · 激活 %5 · NCCL 缓冲区 %6 · cuBLAS 工作区 %7</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> · the optimizer step&apos;s fp32 gradient copy %1, counted in place of the activations</source>
        <translation> · 优化器步骤的 fp32 梯度副本 %1，代替激活值计入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · reserved by PyTorch&apos;s caching allocator %1</source>
        <translation> · PyTorch 缓存分配器保留 %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>rank %1, %2</source>
        <translation>rank %1，%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rank %1, stage %2</source>
        <translation>rank %1，阶段 %2</translation>
    </message>
</context>
<context>
    <name>gp::DeviceTreeModel</name>
    <message>
        <location filename="../widgets/panels/device_tree_model.cpp" line="+134"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Peak memory / capacity</source>
        <translation>峰值内存 / 容量</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Util.</source>
        <translation>利用率</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Busy</source>
        <translation>忙碌</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fullest</source>
        <translation>最满</translation>
    </message>
    <message>
        <location line="+48"/>
        <location line="+60"/>
        <source>%1 %</source>
        <translation>%1 %</translation>
    </message>
    <message>
        <location line="-60"/>
        <location line="+1"/>
        <location line="+58"/>
        <location line="+3"/>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <location line="-61"/>
        <location line="+61"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="-57"/>
        <source>%1: peak memory %2 of %3: %4 over capacity</source>
        <translation>%1：峰值内存 %2，容量 %3：超出 %4</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: peak memory %2 of %3 (%4 %)</source>
        <translation>%1：峰值内存 %2，容量 %3（%4 %）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 (%2): capacity %3</source>
        <translation>%1（%2）：容量 %3</translation>
    </message>
    <message numerus="yes">
        <location line="+41"/>
        <source>%1 (%n GPU(s), %2 over)</source>
        <translation>
            <numerusform>%1（%n 个 GPU，%2 个超出）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%1 (%n GPU(s))</source>
        <translation>
            <numerusform>%1（%n 个 GPU）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1–%2 %</source>
        <translation>%1–%2 %</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%1: %n GPU(s), %2 each at most; not measured</source>
        <translation>
            <numerusform>%1：%n 个 GPU，每个最多 %2；未测量</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%1: %n GPU(s), peak memory %2 to %3 of %4</source>
        <translation>
            <numerusform>%1：%n 个 GPU，峰值内存 %2 至 %3，容量 %4</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fullest: %1 (%2)</source>
        <translation>最满：%1（%2）</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n GPU(s) over capacity</source>
        <translation>
            <numerusform>%n 个 GPU 超出容量</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Busiest: %1 (%2 ms)</source>
        <translation>最忙：%1（%2 ms）</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n GPU(s) not used</source>
        <translation>
            <numerusform>%n 个 GPU 未使用</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::DeviceTreeView</name>
    <message>
        <location filename="../widgets/panels/device_tree_view.cpp" line="+56"/>
        <source>Filter devices by name</source>
        <translation>按名称筛选设备</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show the servers and GPUs whose name contains this text (node12, gpu3, node12/gpu3)</source>
        <translation>显示名称包含此文本的服务器和 GPU（node12、gpu3、node12/gpu3）</translation>
    </message>
</context>
<context>
    <name>gp::Document</name>
    <message>
        <location filename="../app/desktop/document.cpp" line="+142"/>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>%1: the placement file could not be applied</source>
        <translation>%1：无法应用该放置文件</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Single device (as opened)</source>
        <translation>单设备（打开时的状态）</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>Previous plan, on %1</source>
        <translation>此前的方案，在 %1 上</translation>
    </message>
    <message numerus="yes">
        <location line="+24"/>
        <source>%n moved op(s) left their fusion groups: ops on different devices never fuse.</source>
        <translation>
            <numerusform>%n 个移动的算子已离开其融合组：不同设备上的算子不能融合。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Open placement %1</source>
        <translation>打开放置文件 %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Placement file %1</source>
        <translation>放置文件 %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Restore “%1”</source>
        <translation>恢复“%1”</translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+107"/>
        <source>Current plan</source>
        <translation>当前方案</translation>
    </message>
    <message>
        <location line="-98"/>
        <source>Measuring…</source>
        <translation>正在测量…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Measuring failed: %1</source>
        <translation>测量失败：%1</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Running baseline %1…</source>
        <translation>正在运行基线 %1…</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Running %n baselines…</source>
        <translation>
            <numerusform>正在运行 %n 个基线…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Baseline %1</source>
        <translation>基线 %1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Baselines failed: %1</source>
        <translation>基线运行失败：%1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Apply baseline %1</source>
        <translation>应用基线 %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Baselines cancelled</source>
        <translation>已取消基线运行</translation>
    </message>
    <message>
        <location filename="../app/desktop/job_rules.cpp" line="+27"/>
        <location line="+19"/>
        <source>The optimizer is running: stop it to change the plan.</source>
        <translation>优化器正在运行：请先停止它再修改方案。</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>The optimizer is already running.</source>
        <translation>优化器已在运行。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Baselines are running: the optimizer starts once they finish or are cancelled.</source>
        <translation>基线正在运行：待其完成或取消后才能启动优化器。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Baselines are running: measure on the GPUs once they finish or are cancelled.</source>
        <translation>基线正在运行：待其完成或取消后再在 GPU 上测量。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The plan is running on the GPUs: profile them once it has finished.</source>
        <translation>方案正在 GPU 上运行：请在其完成后再分析 GPU。</translation>
    </message>
    <message>
        <location filename="../app/desktop/optimize_document.cpp" line="+34"/>
        <source>Optimizing…</source>
        <translation>正在优化…</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>%1 of %2 s</source>
        <translation>已用 %1 秒，共 %2 秒</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Optimizing: polishing the best plan, %1</source>
        <translation>正在优化：打磨最佳方案，%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizing: polishing the best plan</source>
        <translation>正在优化：打磨最佳方案</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizing: iteration %1, %2</source>
        <translation>正在优化：第 %1 次迭代，%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizing: iteration %1 of %2</source>
        <translation>正在优化：第 %1 次迭代，共 %2 次</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Optimizer failed: %1</source>
        <translation>优化器失败：%1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The optimizer stopped before its first iteration.</source>
        <translation>优化器在第一次迭代之前就已停止。</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n iteration(s)</source>
        <translation>
            <numerusform>%n 次迭代</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>, %n polish move(s)</source>
        <translation>
            <numerusform>，%n 步打磨</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizer (%1, zero-shot)</source>
        <translation>优化器（%1，零样本）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizer (%1, stopped after %2)</source>
        <translation>优化器（%1，%2后停止）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizer (%1, %2)</source>
        <translation>优化器（%1，%2）</translation>
    </message>
    <message>
        <location filename="../app/desktop/plan_edit_document.cpp" line="+46"/>
        <source>Select ops to set their priority.</source>
        <translation>请先选择算子再设置优先级。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Set priority of %1 to %2</source>
        <translation>将 %1 的优先级设为 %2</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Set priority of %n ops to %1</source>
        <translation>
            <numerusform>将 %n 个算子的优先级设为 %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Cannot fuse: select at least two ops.</source>
        <translation>无法融合：请至少选择两个算子。</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>Cannot fuse %n ops: they are on different devices (%1); ops on different devices never fuse.</source>
        <translation>
            <numerusform>无法融合 %n 个算子：它们位于不同设备上（%1）；不同设备上的算子不能融合。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>These %n ops already form fusion group %1.</source>
        <translation>
            <numerusform>这 %n 个算子已构成融合组 %1。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Cannot fuse %n ops: %1.</source>
        <translation>
            <numerusform>无法融合 %n 个算子：%1。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Fuse %n ops</source>
        <translation>
            <numerusform>融合 %n 个算子</numerusform>
        </translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Cannot unfuse: none of the selected ops is fused.</source>
        <translation>无法取消融合：所选算子均未融合。</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Unfuse %n ops</source>
        <translation>
            <numerusform>取消融合 %n 个算子</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n fusion group(s) dissolved as well: what was left of them could not run as one kernel.</source>
        <translation>
            <numerusform>另有 %n 个融合组被解散：其剩余算子无法作为一个内核运行。</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/desktop/calibration_document.cpp" line="+70"/>
        <source>Current plan, calibrated with %1</source>
        <translation>当前方案，已用 %1 校准</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Current plan, without calibration</source>
        <translation>当前方案，未校准</translation>
    </message>
    <message>
        <location filename="../app/desktop/job_rules.cpp" line="-5"/>
        <source>The plan is already running on the GPUs.</source>
        <translation>该方案已在 GPU 上运行。</translation>
    </message>
    <message>
        <location filename="../app/desktop/gpu_document.cpp" line="+21"/>
        <source>Measuring on GPUs…</source>
        <translation>正在 GPU 上测量…</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Measure on GPUs cancelled</source>
        <translation>已取消在 GPU 上测量</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measure on GPUs failed: %1</source>
        <translation>在 GPU 上测量失败：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The plan changed while it ran on the GPUs: the measurement was dropped.</source>
        <translation>方案在 GPU 上运行期间已更改：测量结果已丢弃。</translation>
    </message>
    <message>
        <location filename="../app/desktop/job_rules.cpp" line="-8"/>
        <location line="+5"/>
        <source>The plan is running on the GPUs: wait until it finishes, or cancel it.</source>
        <translation>方案正在 GPU 上运行：请等待其完成，或取消它。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The optimizer is running: stop it to measure on the GPUs.</source>
        <translation>优化器正在运行：请先停止它，再在 GPU 上测量。</translation>
    </message>
    <message>
        <location filename="../app/desktop/calibration_document.cpp" line="-34"/>
        <source>%1: the table has no entries, so it calibrates nothing</source>
        <translation>%1：该表没有条目，因此不校准任何内容</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: its device kinds (%2) include none of cluster %3&apos;s (%4), so it calibrates nothing</source>
        <translation>%1：其设备类型（%2）与集群 %3 的设备类型（%4）均不相符，因此不校准任何内容</translation>
    </message>
</context>
<context>
    <name>gp::GpuAvailability</name>
    <message>
        <location filename="../app/desktop/gpu_availability.cpp" line="+38"/>
        <source>no NVIDIA GPU found</source>
        <translation>未找到 NVIDIA GPU</translation>
    </message>
    <message>
        <location line="+33"/>
        <location line="+4"/>
        <source>Looking for GPUs…</source>
        <translation>正在查找 GPU…</translation>
    </message>
</context>
<context>
    <name>gp::GraphSearchBar</name>
    <message>
        <location filename="../widgets/graph/graph_search_bar.cpp" line="+16"/>
        <source>Search ops…</source>
        <translation>搜索算子…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Regex</source>
        <translation>正则表达式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Op type</source>
        <translation>算子类型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Previous match (Shift+Enter)</source>
        <translation>上一个匹配项（Shift+Enter）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Next match (Enter)</source>
        <translation>下一个匹配项（Enter）</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>No matches</source>
        <translation>无匹配项</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
</context>
<context>
    <name>gp::GraphView</name>
    <message>
        <location filename="../widgets/graph/graph_view.cpp" line="+159"/>
        <source>Laying out the graph…</source>
        <translation>正在布局计算图…</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Laying out the graph… %1%</source>
        <translation>正在布局计算图… %1%</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>not enough memory to lay out this many boxes</source>
        <translation>内存不足，无法布局这么多方框</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Layout failed: %1</source>
        <translation>布局失败：%1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no result</source>
        <translation>没有结果</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Refining the layout (Graphviz)…</source>
        <translation>正在优化布局（Graphviz）…</translation>
    </message>
    <message>
        <location filename="../widgets/graph/graph_view_colors.cpp" line="+182"/>
        <source>Start time</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <location line="+11"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="-9"/>
        <source>Op time (log scale)</source>
        <translation>算子耗时（对数刻度）</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>%1 µs</source>
        <translation>%1 µs</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Slack: none — every op is on the critical path</source>
        <translation>松弛时间：无——每个算子都在关键路径上</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Slack (critical path outlined)</source>
        <translation>松弛时间（关键路径已勾出）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>0 (critical)</source>
        <translation>0（关键）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Prediction error: measure in Run ▸ Cost Model…</source>
        <translation>预测误差：请在 运行 ▸ 成本模型… 中测量</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Learned model&apos;s error |ln(predicted / measured)|</source>
        <translation>学习模型的误差 |ln(预测 / 实测)|</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>0 (exact)</source>
        <translation>0（精确）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (×%2 off)</source>
        <translation>%1（偏差 ×%2）</translation>
    </message>
    <message>
        <location filename="../widgets/graph/graph_view_input.cpp" line="+217"/>
        <source>Assign to</source>
        <translation>分配到</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+55"/>
        <source>Device %1</source>
        <translation>设备 %1</translation>
    </message>
    <message>
        <location line="-52"/>
        <source>%1	%2</source>
        <translation>%1	%2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Expand group</source>
        <translation>展开分组</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Collapse “%1”</source>
        <translation>折叠“%1”</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Select all ops of the group</source>
        <translation>选中该分组的全部算子</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Zoom to fit</source>
        <translation>适应窗口</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expand all</source>
        <translation>全部展开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Collapse all</source>
        <translation>全部折叠</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>unplaced</source>
        <translation>未放置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 · %3 · %4 GFLOP</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 · %3 · %4 GFLOP</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Priority %1 · %2</source>
        <translation>优先级 %1 · %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FIFO</source>
        <translation>FIFO</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fusion group %1</source>
        <translation>融合组 %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not fused</source>
        <translation>未融合</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 ops; double-click to expand</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 个算子；双击展开</translation>
    </message>
    <message>
        <location line="+19"/>
        <location filename="../widgets/graph/graph_view_paint.cpp" line="+315"/>
        <source>1 op</source>
        <translation>1 个算子</translation>
    </message>
    <message>
        <location line="+0"/>
        <location filename="../widgets/graph/graph_view_paint.cpp" line="+0"/>
        <source>%1 ops</source>
        <translation>%1 个算子</translation>
    </message>
    <message>
        <location filename="../widgets/graph/graph_view_paint.cpp" line="-246"/>
        <source>No graph loaded.</source>
        <translation>未加载计算图。</translation>
    </message>
    <message>
        <location line="+245"/>
        <source>%1 calls · %2 ops</source>
        <translation>%1 次调用 · %2 个算子</translation>
    </message>
</context>
<context>
    <name>gp::HistoryModel</name>
    <message>
        <location filename="../widgets/panels/history_model.cpp" line="+85"/>
        <source>Simulated step time</source>
        <translation>模拟的单步时间</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Step time divided by the lower bound (1.00 is the best possible)</source>
        <translation>单步时间除以下界（1.00 为理论最优）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Step time difference to the previous feasible entry</source>
        <translation>与上一个可行条目的单步时间之差</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>When the plan was measured</source>
        <translation>方案的测量时间</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Plan</source>
        <translation>方案</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Step (ms)</source>
        <translation>单步 (ms)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>× bound</source>
        <translation>× 下界</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Δ vs previous</source>
        <translation>Δ 相对上一条</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Feasible</source>
        <translation>可行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>%1×</source>
        <translation>%1×</translation>
    </message>
    <message>
        <location line="+0"/>
        <location line="+3"/>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 ms (%2 %)</source>
        <translation>%1 ms（%2%）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Yes</source>
        <translation>是</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>No</source>
        <translation>否</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>as opened</source>
        <translation>打开时</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>baseline</source>
        <translation>基线</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>manual edit</source>
        <translation>手动编辑</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>placement file</source>
        <translation>放置文件</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1, computed in %2 s</source>
        <translation>%1，计算耗时 %2 s</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not feasible</source>
        <translation>不可行</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No earlier feasible entry to compare with</source>
        <translation>没有可供比较的更早可行条目</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compared with #%1 (%2)</source>
        <translation>与 #%1（%2）比较</translation>
    </message>
</context>
<context>
    <name>gp::HistoryPanel</name>
    <message>
        <location filename="../widgets/panels/history_panel.cpp" line="+55"/>
        <source>Restore</source>
        <translation>恢复</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Make the selected entry&apos;s plan the current plan</source>
        <translation>将所选条目的方案设为当前方案</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>–</source>
        <translation>–</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>#%1 vs #%2: %3 ms (%4 %), %Ln ops moved</source>
        <translation>
            <numerusform>#%1 对比 #%2：%3 ms（%4%），移动了 %Ln 个算子</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>#%1: %2
#%3: %4</source>
        <translation>#%1：%2
#%3：%4</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>#%1 %2: %3 ms. Select a second entry to compare.</source>
        <translation>#%1 %2：%3 ms。再选择一个条目以进行比较。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>#%1 %2: not feasible (%3).</source>
        <translation>#%1 %2：不可行（%3）。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Measured plans appear here.</source>
        <translation>已测量的方案会显示在这里。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Select two entries to compare them.</source>
        <translation>选择两个条目以进行比较。</translation>
    </message>
</context>
<context>
    <name>gp::ImportBanner</name>
    <message numerus="yes">
        <location filename="../app/desktop/import_notice.cpp" line="-38"/>
        <source>%n op(s) have shapes the importer could not learn; their cost is estimated.</source>
        <translation>
            <numerusform>%n 个算子的形状无法由导入器得知；其开销为估算值。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show them</source>
        <translation>显示它们</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 = %2</source>
        <translation>%1 = %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 = %2 (default)</source>
        <translation>%1 = %2（默认）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Symbolic dimensions: %1.</source>
        <translation>符号维度：%1。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set…</source>
        <translation>设置…</translation>
    </message>
</context>
<context>
    <name>gp::LayerStackView</name>
    <message>
        <location filename="../widgets/parallel/layer_stack_view.cpp" line="+107"/>
        <source>Stage %1 · layers %2–%3 · tp %4 · dp %5</source>
        <translation>阶段 %1 · 层 %2–%3 · tp %4 · dp %5</translation>
    </message>
    <message>
        <location line="+39"/>
        <source> · recompute</source>
        <translation> · 重计算</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>S%1 · tp %2 · dp %3</source>
        <translation>S%1 · tp %2 · dp %3</translation>
    </message>
    <message>
        <location line="-30"/>
        <source> · chunk %1</source>
        <translation> · 块 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · %1 recomputation</source>
        <translation> · %1重计算</translation>
    </message>
    <message>
        <location line="+32"/>
        <source> · selective</source>
        <translation> · 选择性</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>P</source>
        <translation>前</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>E</source>
        <translation>后</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>Drag to move the boundary between stages %1 and %2</source>
        <translation>拖动以移动阶段 %1 和 %2 之间的边界</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 (stage %2)
%3 GFLOP forward per sample, %4 M parameters</source>
        <translation>%1（阶段 %2）
每个样本前向 %3 GFLOP，%4 M 个参数</translation>
    </message>
</context>
<context>
    <name>gp::MainWindow</name>
    <message>
        <location filename="../app/desktop/main_window.cpp" line="+104"/>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Filter devices by name</source>
        <translation>按名称筛选设备</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Devices</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+230"/>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <location line="-229"/>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reward</source>
        <translation>奖励</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Inspector</source>
        <translation>检查器</translation>
    </message>
    <message>
        <location line="+178"/>
        <source>To %1</source>
        <translation>到 %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>To Another Device…</source>
        <translation>到其他设备…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Assign Selection</source>
        <translation>分配所选</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Device name (node12/gpu3):</source>
        <translation>设备名称（node12/gpu3）：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1: no such device on %2</source>
        <translation>%1：%2 上没有此设备</translation>
    </message>
    <message numerus="yes">
        <location line="+30"/>
        <source>Timeline (%n idle device(s) not shown)</source>
        <translation>
            <numerusform>时间线（未显示 %n 个空闲设备）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+20"/>
        <source>%n op(s) placed differently in “%1” and “%2” are outlined in the graph</source>
        <translation>
            <numerusform>“%1”与“%2”中放置不同的 %n 个算子已在图中以轮廓标出</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>graphplace</source>
        <translation>graphplace</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 on %2 — graphplace</source>
        <translation>%1（%2）— graphplace</translation>
    </message>
    <message>
        <location line="+8"/>
        <location filename="../app/desktop/main_window_explain.cpp" line="+217"/>
        <source>No model open</source>
        <translation>未打开模型</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%Ln op(s)</source>
        <translation>
            <numerusform>%Ln 个算子</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>step %1 ms  ·  bound %2 ms  ·  ×%3</source>
        <translation>单步 %1 ms  ·  下界 %2 ms  ·  ×%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>infeasible: %1</source>
        <translation>不可行：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>plan edited, not measured (F5)</source>
        <translation>方案已修改，尚未测量（F5）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>laying out…</source>
        <translation>正在布局…</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>%1: open the model first, then its placement file</source>
        <translation>%1：请先打开模型，再打开其放置文件</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: open a model first, then a cluster file</source>
        <translation>%1：请先打开模型，再打开集群文件</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location filename="../app/desktop/main_window_actions.cpp" line="+46"/>
        <source>&amp;Open…</source>
        <translation>打开(&amp;O)…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Measure</source>
        <translation>测量(&amp;M)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Simulate the current plan and add it to the history (F5)</source>
        <translation>模拟当前方案并将其添加到历史记录（F5）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run &amp;All Baselines</source>
        <translation>运行全部基线(&amp;A)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop the running baselines and the graph layout</source>
        <translation>停止正在运行的基线和图布局</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Zoom to &amp;Fit</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Optimize</source>
        <translation>优化(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Improve the current plan with the reinforcement-learning optimizer (options: the arrow)</source>
        <translation>用强化学习优化器改进当前方案（选项：点击箭头）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Stop</source>
        <translation>停止(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop the optimizer; its best plan so far is kept</source>
        <translation>停止优化器；保留目前为止的最佳方案</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Set &amp;Priority…</source>
        <translation>设置优先级(&amp;P)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type the selected ops&apos; priority in the inspector (Return applies)</source>
        <translation>在检查器中输入所选算子的优先级（按回车应用）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Run the selected ops as one kernel</source>
        <translation>将所选算子作为一个内核运行</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Fu&amp;se Selection</source>
        <translation>融合所选项(&amp;S)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>U&amp;nfuse Selection</source>
        <translation>取消融合所选项(&amp;N)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Take the selected ops out of their fusion groups</source>
        <translation>将所选算子移出其融合组</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Examples</source>
        <translation>示例(&amp;E)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Symbolic &amp;Dimensions…</source>
        <translation>符号维度(&amp;D)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set the values of the model&apos;s symbolic input dimensions and reopen it</source>
        <translation>设置模型符号输入维度的取值并重新打开模型</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Apply &amp;Placement File…</source>
        <translation>应用放置文件(&amp;P)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Apply Placement File</source>
        <translation>应用放置文件</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Placement files (*.json);;All files (*)</source>
        <translation>放置文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Load &amp;Cluster…</source>
        <translation>加载集群(&amp;C)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Load Cluster</source>
        <translation>加载集群</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cluster files (*.json);;All files (*)</source>
        <translation>集群文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Attach to &amp;Run…</source>
        <translation>附加到运行(&amp;R)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Follow the event log of an optimize or pretrain run (--events FILE), running or finished</source>
        <translation>跟踪 optimize 或 pretrain 运行的事件日志（--events FILE），无论运行中还是已结束</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Attach to Run</source>
        <translation>附加到运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run event logs (*.jsonl);;All files (*)</source>
        <translation>运行事件日志 (*.jsonl);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Export</source>
        <translation>导出(&amp;E)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Placement File…</source>
        <translation>放置文件(&amp;P)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Annotated &amp;ONNX…</source>
        <translation>带标注的 ONNX(&amp;O)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Graphviz &amp;DOT…</source>
        <translation>Graphviz DOT(&amp;D)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Chrome &amp;Trace…</source>
        <translation>Chrome Trace(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Graph Image…</source>
        <translation>计算图图像(&amp;G)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>T&amp;imeline Image…</source>
        <translation>时间线图像(&amp;I)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Reward Plot Image…</source>
        <translation>奖励曲线图像(&amp;R)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Plan Re&amp;port…</source>
        <translation>方案报告(&amp;P)…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Assign Selection</source>
        <translation>分配所选项(&amp;A)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Clear Selection</source>
        <translation>清除选择</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Find…</source>
        <translation>查找(&amp;F)…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Expand All Groups</source>
        <translation>展开所有分组(&amp;E)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Collapse All Groups</source>
        <translation>折叠所有分组(&amp;C)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Run</source>
        <translation>运行(&amp;R)</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+53"/>
        <source>&amp;Baselines</source>
        <translation>基线(&amp;B)</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About graphplace</source>
        <translation>关于 graphplace(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>About graphplace</source>
        <translation>关于 graphplace</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;graphplace %1&lt;/b&gt;&lt;p&gt;Chooses where and when each op of a model&apos;s graph runs on a GPU cluster, and shows every result against the lower bound.&lt;/p&gt;</source>
        <translation>&lt;b&gt;graphplace %1&lt;/b&gt;&lt;p&gt;决定模型计算图中每个算子在 GPU 集群上的运行位置与时机，并将每个结果与下界进行对比。&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Main</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Baselines</source>
        <translation>基线</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Colour: device</source>
        <translation>着色：设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour: fusion group</source>
        <translation>着色：融合组</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour: start time</source>
        <translation>着色：开始时间</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour: op cost</source>
        <translation>着色：算子开销</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour: prediction error</source>
        <translation>着色：预测误差</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The learned cost model&apos;s error per op&apos;s kernel, from Run ▸ Cost Model… (grey: not measured)</source>
        <translation>学习的成本模型对每个算子内核的误差，来自 运行 ▸ 成本模型…（灰色：未测量）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Colour: slack</source>
        <translation>颜色：松弛时间</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How much later each op could finish without lengthening the step (View ▸ Critical Path)</source>
        <translation>每个算子最多可晚多久完成而不延长训练步（视图 ▸ 关键路径）</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>Open Model</source>
        <translation>打开模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Models (*.onnx *.pt *.pth *.torchscript *.dot *.gv *.json);;Placement files (*.json);;All files (*)</source>
        <translation>模型 (*.onnx *.pt *.pth *.torchscript *.dot *.gv *.json);;放置文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Placement files (*.json)</source>
        <translation>放置文件 (*.json)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ONNX models (*.onnx)</source>
        <translation>ONNX 模型 (*.onnx)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Graphviz DOT (*.dot *.gv)</source>
        <translation>Graphviz DOT (*.dot *.gv)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chrome traces (*.json)</source>
        <translation>Chrome Trace 文件 (*.json)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>PNG images (*.png);;SVG drawings (*.svg)</source>
        <translation>PNG 图像 (*.png);;SVG 矢量图 (*.svg)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTML pages (*.html)</source>
        <translation>HTML 页面 (*.html)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The language changes when graphplace starts again.</source>
        <translation>语言将在 graphplace 重新启动后生效。</translation>
    </message>
    <message>
        <location filename="../app/desktop/main_window_gpu.cpp" line="+34"/>
        <source>GPUs</source>
        <translation>GPU</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 × %2</source>
        <translation>%1 × %2</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1%2 %</source>
        <comment>signed percentage</comment>
        <translation>%1%2 %</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>&amp;Profile Local GPUs…</source>
        <translation>分析本机 GPU(&amp;P)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Measure on &amp;GPUs</source>
        <translation>在 GPU 上测量(&amp;G)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Load Calibration &amp;Table…</source>
        <translation>加载校准表(&amp;T)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Use measured op times (a calibration table) instead of the roofline estimate</source>
        <translation>使用实测的算子时间（校准表）代替 Roofline 估算</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>C&amp;lear Calibration Table</source>
        <translation>清除校准表(&amp;L)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Estimate every op&apos;s time with the roofline model again</source>
        <translation>重新用 Roofline 模型估算每个算子的时间</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Cluster</source>
        <translation>集群(&amp;C)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Measure this machine&apos;s GPUs and make a cluster file with a calibration table</source>
        <translation>测量本机的 GPU，并生成集群文件及校准表</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Run the current plan on the local GPUs and show the measured timeline below the simulated one (Shift+F5)</source>
        <translation>在本机 GPU 上运行当前方案，并在模拟时间线下方显示实测时间线 (Shift+F5)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Measured on %1 %2 (%3)</source>
        <translation>在 %1 上实测 %2 (%3)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no per-kernel timeline with this timer</source>
        <translation>此计时器不提供逐内核时间线</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Simulated %1</source>
        <translation>模拟 %1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>simulated %1, measured %2 on %3 (%4)</source>
        <translation>模拟 %1，在 %3 上实测 %2 (%4)</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>calibrated by %1 (%n op time(s) from it)</source>
        <translation>
            <numerusform>已用 %1 校准（其中 %n 个算子时间）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Load Calibration Table</source>
        <translation>加载校准表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Calibration tables (*.json);;All files (*)</source>
        <translation>校准表 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Calibration table %1 loaded</source>
        <translation>已加载校准表 %1</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Now using the profiled cluster %1</source>
        <translation>现在使用分析得到的集群 %1</translation>
    </message>
    <message>
        <location line="-80"/>
        <source>The GPUs are being profiled: measure on them once the profile has finished.</source>
        <translation>正在分析 GPU：请在分析完成后再在 GPU 上测量。</translation>
    </message>
    <message>
        <location filename="../app/desktop/main_window_parallel.cpp" line="+12"/>
        <source>&amp;Parallel Plan…</source>
        <translation>并行方案(&amp;P)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Plan data, tensor and pipeline parallel training of the model on the cluster</source>
        <translation>规划模型在集群上的数据、张量和流水线并行训练</translation>
    </message>
    <message>
        <location filename="../app/desktop/main_window_costmodel.cpp" line="+13"/>
        <source>&amp;Cost Model…</source>
        <translation>成本模型(&amp;C)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Time the model&apos;s kernels on this CPU and compare them with the learned cost model and the fitted roofline</source>
        <translation>在本机 CPU 上为模型的内核计时，并与学习的成本模型和拟合的 Roofline 比较</translation>
    </message>
    <message>
        <location filename="../app/desktop/main_window_run.cpp" line="+29"/>
        <source>Open %1 first: the best plan places its ops</source>
        <translation>请先打开 %1：最佳方案放置的是它的算子</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The run placed %1 (%2 ops); the open model is %3 (%4 ops)</source>
        <translation>该运行放置的是 %1（%2 个算子）；当前打开的模型是 %3（%4 个算子）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The run&apos;s plan uses more devices than the open cluster&apos;s %1</source>
        <translation>该运行的方案使用的设备多于当前集群的 %1 个</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The run&apos;s best plan cannot be applied: %1</source>
        <translation>无法应用该运行的最佳方案：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>best plan of the attached run</source>
        <translation>所附加运行的最佳方案</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Applied the run&apos;s best plan to %1</source>
        <translation>已将该运行的最佳方案应用到 %1</translation>
    </message>
    <message>
        <location filename="../app/desktop/main_window_explain.cpp" line="-166"/>
        <location line="+20"/>
        <source>Measure a plan to see the moves that would shorten its step.</source>
        <translation>测量一个方案，即可看到能缩短其训练步的调整。</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>Suggestions</source>
        <translation>建议</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Could not explain the step: %1</source>
        <translation>无法解释该训练步：%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+70"/>
        <source>The plan changed: new suggestions follow its measurement</source>
        <translation>方案已更改：新的建议将在测量后给出</translation>
    </message>
    <message>
        <location line="-65"/>
        <source>&amp;Critical Path</source>
        <translation>关键路径(&amp;C)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Colour ops by slack and outline the chain of kernels and transfers that sets the step time, in the graph and the timeline</source>
        <translation>按松弛时间为算子着色，并在计算图和时间线中勾出决定步时的内核与传输链</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Looking for moves…</source>
        <translation>正在寻找调整…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Looking for moves from the critical path…</source>
        <translation>正在从关键路径寻找调整…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Critical path: %1 steps, compute %2 ms, transfers %3 ms; ops without slack are outlined</source>
        <translation>关键路径：%1 步，计算 %2 ms，传输 %3 ms；没有松弛时间的算子已勾出</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>None of the %1 moves tried from the critical path shortens the step.</source>
        <translation>从关键路径尝试的 %1 个调整都不能缩短训练步。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of %2 moves tried from the critical path shorten the step (simulated):</source>
        <translation>从关键路径尝试的 %2 个调整中，有 %1 个能缩短训练步（模拟结果）：</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Suggestion: %1</source>
        <translation>建议：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>%1: %2 ms (%3), %Ln op(s) outlined</source>
        <translation>
            <numerusform>%1：%2 ms（%3），已勾出 %Ln 个算子</numerusform>
        </translation>
    </message>
    <message>
        <location line="+11"/>
        <source>no change</source>
        <translation>无变化</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>does not fit</source>
        <translation>内存放不下</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Critical path: the same time in every part.</source>
        <translation>关键路径：各部分时间相同。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>compute on %1 %2</source>
        <translation>%1 上的计算 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>transfers over %1 %2</source>
        <translation>经 %1 的传输 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting for %1 %2</source>
        <translation>等待 %1 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting for link %1 %2</source>
        <translation>等待链路 %1 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Critical path, #%1 against #%2: %3</source>
        <translation>关键路径，#%1 对比 #%2：%3</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1: the plan does not run: %2</source>
        <translation>%1：该方案无法运行：%2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>after “%1”</source>
        <translation>“%1”之后</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>as opened</source>
        <translation>打开时的方案</translation>
    </message>
</context>
<context>
    <name>gp::MemoryBar</name>
    <message>
        <location filename="../widgets/panels/memory_bar.cpp" line="+98"/>
        <source>Peak memory %1 of %2: %3 over capacity</source>
        <translation>峰值内存 %1 / %2：超出容量 %3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Peak memory %1 of %2 (%3 %)</source>
        <translation>峰值内存 %1 / %2（%3%）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Capacity %1; measure the plan to see its peak memory</source>
        <translation>容量 %1；测量方案后可查看峰值内存</translation>
    </message>
    <message>
        <location line="-75"/>
        <source>– / %1 GiB</source>
        <translation>– / %1 GiB</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1–%2 / %3 GiB</source>
        <translation>%1–%2 / %3 GiB</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 / %2 GiB</source>
        <translation>%1 / %2 GiB</translation>
    </message>
    <message>
        <location filename="../widgets/panels/number_format.h" line="+44"/>
        <source>%1 GiB</source>
        <translation>%1 GiB</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 MiB</source>
        <translation>%1 MiB</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 KiB</source>
        <translation>%1 KiB</translation>
    </message>
</context>
<context>
    <name>gp::MeshView</name>
    <message>
        <location filename="../widgets/parallel/mesh_view.cpp" line="+184"/>
        <source>%1 servers × %2 GPUs</source>
        <translation>%1 台服务器 × %2 个 GPU</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+59"/>
        <source>S%1</source>
        <translation>S%1</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>enlarge to see every server</source>
        <translation>放大以查看所有服务器</translation>
    </message>
    <message>
        <location line="+33"/>
        <source>d%1 t%2</source>
        <translation>d%1 t%2</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>d%1 c%2 t%3</source>
        <translation>d%1 c%2 t%3</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>%1: not used by the plan</source>
        <translation>%1：方案未使用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: rank %2, stage %3, data-parallel replica %4, context rank %5, tensor-parallel shard %6</source>
        <translation>%1：rank %2，阶段 %3，数据并行副本 %4，上下文并行 rank %5，张量并行分片 %6</translation>
    </message>
</context>
<context>
    <name>gp::MfuPlot</name>
    <message>
        <location filename="../widgets/parallel/mfu_plot.cpp" line="+19"/>
        <source>episode&apos;s plan</source>
        <translation>该回合的方案</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>best so far</source>
        <translation>目前最佳</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>episode</source>
        <translation>回合</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MFU %</source>
        <translation>MFU %</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Model FLOPs utilisation of each plan the DQN tried (0 when it does not fit) and the best so far.
Wheel: zoom · drag: pan · double-click: fit</source>
        <translation>DQN 尝试的每个方案的模型 FLOPs 利用率（放不下时为 0）以及目前最佳。
滚轮：缩放 · 拖动：平移 · 双击：适应窗口</translation>
    </message>
</context>
<context>
    <name>gp::OpInspector</name>
    <message>
        <location filename="../widgets/panels/op_inspector.cpp" line="+68"/>
        <source>Type:</source>
        <translation>类型：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cost:</source>
        <translation>开销：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Priority:</source>
        <translation>优先级：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fusion:</source>
        <translation>融合：</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Priority for the selected ops: on each device, the ready op with the highest priority runs first; equal priorities run in the order they became ready</source>
        <translation>所选算子的优先级：每个设备上优先级最高的就绪算子先运行；优先级相同时按就绪顺序运行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set priority</source>
        <translation>设置优先级</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Give the selected ops this priority (a plan without priorities first gives every op priority 0, which is the same FIFO order)</source>
        <translation>为所选算子设置此优先级（没有优先级的方案会先将所有算子的优先级设为 0，与 FIFO 顺序相同）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Fuse</source>
        <translation>融合</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run the selected ops as one kernel (one device; at most one heavy op such as a MatMul)</source>
        <translation>将所选算子作为一个内核运行（同一设备；最多一个 MatMul 等重型算子）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unfuse</source>
        <translation>取消融合</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Take the selected ops out of their fusion groups</source>
        <translation>将所选算子移出其融合组</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>unplaced</source>
        <translation>未放置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Device %1</source>
        <translation>设备 %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 %2FLOP</source>
        <translation>%1 %2FLOP</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>No model open</source>
        <translation>未打开模型</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Select ops in the graph or the timeline</source>
        <translation>在计算图或时间线中选择算子</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 (estimated: a shape is unknown)</source>
        <translation>%1（估算值：有形状未知）</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+57"/>
        <source>FIFO</source>
        <translation>FIFO</translation>
    </message>
    <message numerus="yes">
        <location line="-55"/>
        <source>group %1 (%n op(s))</source>
        <translation>
            <numerusform>组 %1（%n 个算子）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not fused</source>
        <translation>未融合</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n ops selected</source>
        <translation>
            <numerusform>已选择 %n 个算子</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+30"/>
        <source>%1 (%n estimated)</source>
        <translation>
            <numerusform>%1（%n 个为估算值）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+22"/>
        <source>%1–%2</source>
        <translation>%1–%2</translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>#%1 (%n op(s))</source>
        <translation>
            <numerusform>#%1（%n 个算子）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>#%1 (%2 of %n op(s))</source>
        <translation>
            <numerusform>#%1（%n 个算子中的 %2 个）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>none fused</source>
        <translation>均未融合</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n group(s): %1</source>
        <translation>
            <numerusform>%n 个组：%1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n not fused</source>
        <translation>
            <numerusform>%n 个未融合</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+20"/>
        <source>FIFO order</source>
        <translation>FIFO 顺序</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>priority %1</source>
        <translation>优先级 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+22"/>
        <source>priorities %1–%2</source>
        <translation>优先级 %1–%2</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>no fusion group</source>
        <translation>无融合组</translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <location line="+29"/>
        <source>%n fusion group(s)</source>
        <translation>
            <numerusform>%n 个融合组</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-28"/>
        <source>%n ops</source>
        <translation>
            <numerusform>%n 个算子</numerusform>
        </translation>
    </message>
    <message>
        <location line="+18"/>
        <source>priority %1 for all</source>
        <translation>全部优先级为 %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>no fusion</source>
        <translation>无融合</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>(%n op(s))</source>
        <translation>
            <numerusform>（%n 个算子）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan: %1 · %2</source>
        <translation>方案：%1 · %2</translation>
    </message>
</context>
<context>
    <name>gp::OpTypeChart</name>
    <message>
        <location filename="../widgets/op_type_chart.cpp" line="+17"/>
        <location line="+37"/>
        <source>ops</source>
        <translation>算子数</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>other</source>
        <translation>其他</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>FLOPs</source>
        <translation>FLOPs</translation>
    </message>
</context>
<context>
    <name>gp::OptimizePopup</name>
    <message>
        <location filename="../app/desktop/optimize_popup.cpp" line="+39"/>
        <source>Placement</source>
        <translation>放置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scheduling</source>
        <translation>调度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fusion</source>
        <translation>融合</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>ColocRL (2017 seq2seq, REINFORCE)</source>
        <translation>ColocRL（2017 年 seq2seq，REINFORCE）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Policy file…</source>
        <translation>策略文件…</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>0 (zero-shot)</source>
        <translation>0（零样本）</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>Search, no learning (default)</source>
        <translation>搜索，不学习（默认）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pre-trained policy, fine-tuned</source>
        <translation>预训练策略，微调</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New policy, learning (from scratch)</source>
        <translation>新策略，边搜索边学习（从零开始）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The policy network whose samples the search starts from, and whether it learns as it searches. On model families it never saw, learning did not beat the search alone in the same time (docs/performance.md, &quot;Learning&quot;).</source>
        <translation>搜索以其采样为起点的策略网络，以及它是否在搜索中学习。在它从未见过的模型族上，学习在相同时间内没有胜过单纯的搜索（docs/performance.md，“Learning”）。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Search iterations (with a learning policy, each ends in an update); 0 places with the start plan and the policy as it is</source>
        <translation>搜索迭代次数（策略学习时，每次迭代以一次更新结束）；0 表示用起始方案和当前策略直接放置</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop after this many seconds even if iterations remain</source>
        <translation>到达此秒数即停止，即使迭代尚未完成</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The same seed gives the same plan</source>
        <translation>相同的种子给出相同的方案</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimize:</source>
        <translation>优化：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Policy:</source>
        <translation>策略：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Iterations:</source>
        <translation>迭代次数：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time budget:</source>
        <translation>时间预算：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Choose a device for every op</source>
        <translation>为每个算子选择设备</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose a priority for every op: which ready op each device runs first</source>
        <translation>为每个算子选择优先级：决定每个设备先运行哪个就绪算子</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose which ops of a device run as one kernel</source>
        <translation>选择同一设备上哪些算子作为一个内核运行</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>At least one task stays selected: tick another one first</source>
        <translation>至少保留一个任务：请先勾选另一个</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>devices (as in the plan)</source>
        <translation>设备（保持方案中的设置）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>order (the plan&apos;s priorities)</source>
        <translation>顺序（方案的优先级）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>order (FIFO)</source>
        <translation>顺序（FIFO）</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>fusion (the plan&apos;s %n group(s))</source>
        <translation>
            <numerusform>融合（方案的 %n 个组）</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fusion (default: elementwise chains)</source>
        <translation>融合（默认：逐元素链）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fusion (none)</source>
        <translation>融合（无）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All three are decided jointly.</source>
        <translation>三者联合决定。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not optimized: %1</source>
        <translation>不优化：%1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Choose a Policy</source>
        <translation>选择策略</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Policy checkpoints (*.pt);;All files (*)</source>
        <translation>策略检查点 (*.pt);;所有文件 (*)</translation>
    </message>
</context>
<context>
    <name>gp::ParallelControls</name>
    <message>
        <location filename="../widgets/parallel/parallel_controls.cpp" line="+46"/>
        <source>Samples per training step, over all data-parallel replicas</source>
        <translation>每个训练步的样本数（所有数据并行副本合计）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Global batch</source>
        <translation>全局批量</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Data-parallel replicas</source>
        <translation>数据并行副本数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tensor-parallel degree: each layer&apos;s matrices split over this many GPUs</source>
        <translation>张量并行度：每层的矩阵切分到这么多块 GPU 上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pipeline stages</source>
        <translation>流水线阶段数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Context-parallel ranks: each sample&apos;s sequence split over them (ring attention)</source>
        <translation>上下文并行 rank 数：每个样本的序列在它们之间切分（环形注意力）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Mesh</source>
        <translation>网格</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Model chunks per pipeline stage (interleaved 1F1B): the bubble shrinks by this factor, the stages send this many times more often; micro-batches must be a multiple of pp</source>
        <translation>每个流水线阶段的模型块数（交错 1F1B）：气泡按此倍数缩小，阶段间发送次数按此倍数增加；微批次数必须是 pp 的倍数</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Virtual stages</source>
        <translation>虚拟阶段</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Micro-batches per replica and step × samples in each</source>
        <translation>每个副本每步的微批数 × 每个微批的样本数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Micro-batches</source>
        <translation>微批</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>1F1B: one forward, one backward in turn (fewer activations in flight); GPipe: all forwards first</source>
        <translation>1F1B：前向与反向交替进行（在途激活更少）；GPipe：先做完全部前向</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Schedule</source>
        <translation>调度</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>0: none</source>
        <translation>0：无</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>1: optimizer state sharded</source>
        <translation>1：切分优化器状态</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>2: + gradients</source>
        <translation>2：+ 梯度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>3: + parameters</source>
        <translation>3：+ 参数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ZeRO stage: what is split over the data-parallel replicas instead of replicated</source>
        <translation>ZeRO 阶段：哪些内容在数据并行副本间切分而不是复制</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ZeRO</source>
        <translation>ZeRO</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>ZeRO&apos;s sharding group (HSDP, hybrid ZeRO): the state ZeRO splits is split over groups of this many data-parallel replicas and replicated across the groups</source>
        <translation>ZeRO 的分片组（HSDP，混合 ZeRO）：ZeRO 切分的状态在每组这么多个数据并行副本内切分，并在组间复制</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sharded over</source>
        <translation>分片范围</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The software that trains the plan: what it keeps per parameter, how it computes the loss, how much of the TP communication it hides, and which plans it can run</source>
        <translation>训练该方案的软件：每个参数保留什么、如何计算损失、隐藏多少张量并行通信，以及它能运行哪些方案</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Framework</source>
        <translation>框架</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fused (FlashAttention)</source>
        <translation>融合（FlashAttention）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fused (FlashAttention-2)</source>
        <translation>融合（FlashAttention-2）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unfused</source>
        <translation>未融合</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>With tp &gt; 1: norms, residual adds and the activations kept for backward are split over the tensor-parallel GPUs along the sequence</source>
        <translation>tp &gt; 1 时：归一化、残差相加以及为反向保留的激活沿序列在张量并行 GPU 间切分</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>TP overlap</source>
        <translation>张量并行重叠</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>With sequence parallelism: each tensor-parallel all-gather and reduce-scatter runs in chunks beside the product next to it (Megatron-LM&apos;s --tp-comm-overlap); over NVLink only</source>
        <translation>启用序列并行时：每次张量并行的全收集与归约散射分块进行，与其旁边的矩阵乘同时运行（Megatron-LM 的 --tp-comm-overlap）；仅限 NVLink</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>FP8 GEMMs</source>
        <translation>FP8 矩阵乘</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The layers&apos; weight products in FP8 (Transformer Engine&apos;s recipe: inputs cast each pass, an FP8 copy of each weight); needs GPUs with an FP8 rate (Hopper and later)</source>
        <translation>各层的权重矩阵乘以 FP8 运行（Transformer Engine 的方案：每次传递转换输入，每个权重保留一份 FP8 副本）；需要支持 FP8 的 GPU（Hopper 及以后）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>First layer</source>
        <translation>起始层</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Recomputation</source>
        <translation>重计算</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Where each pipeline stage starts (or drag the boundaries in the layer stack), and what it recomputes in backward instead of keeping: nothing, the attention cores (selective) or everything (full)</source>
        <translation>每个流水线阶段从哪里开始（或在层堆栈中拖动边界），以及它在反向时重计算而不保留的内容：不重计算、注意力核心（选择性）或全部（完全）</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Sharded over %1</source>
        <translation>分片范围 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Framework %1</source>
        <translation>框架 %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>TP overlap on</source>
        <translation>开启张量并行重叠</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>TP overlap off</source>
        <translation>关闭张量并行重叠</translation>
    </message>
    <message>
        <location line="+95"/>
        <source>all %1 replicas</source>
        <translation>全部 %1 个副本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>groups of %1</source>
        <translation>每组 %1 个</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Chunk %1 starts at layer %2</source>
        <translation>块 %1 从第 %2 层开始</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Chunk %1: %2 recomputation</source>
        <translation>块 %1：%2重计算</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Stage %1: %2 recomputation</source>
        <translation>阶段 %1：%2重计算</translation>
    </message>
    <message>
        <location line="-203"/>
        <source>Global batch %1</source>
        <translation>全局批量 %1</translation>
    </message>
    <message>
        <location line="-47"/>
        <source>Fused: each attention runs as one kernel that never stores its probabilities, the GPU&apos;s fastest (cuDNN or FlashAttention-3 on Hopper) or FlashAttention-2 (PyTorch&apos;s scaled_dot_product_attention on Hopper up to 2.6); unfused: as the graph&apos;s separate operations</source>
        <translation>融合：每个注意力作为一个从不保存其概率的内核运行，使用 GPU 上最快的内核（Hopper 上为 cuDNN 或 FlashAttention-3）或 FlashAttention-2（PyTorch 2.6 及以前在 Hopper 上的 scaled_dot_product_attention）；未融合：按图中的各个算子分别运行</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>Virtual stages %1</source>
        <translation>虚拟阶段 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Micro-batches %1</source>
        <translation>微批 %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Schedule %1</source>
        <translation>调度 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>ZeRO-%1</source>
        <translation>ZeRO-%1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Attention %1</source>
        <translation>注意力 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sequence parallelism on</source>
        <translation>开启序列并行</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Sequence parallelism off</source>
        <translation>关闭序列并行</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>FP8 GEMMs on</source>
        <translation>开启 FP8 矩阵乘</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>FP8 GEMMs off</source>
        <translation>关闭 FP8 矩阵乘</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>%1 × %2 samples</source>
        <translation>%1 × %2 个样本</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 · chunk %2</source>
        <translation>%1 · 块 %2</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Stage %1 starts at layer %2</source>
        <translation>阶段 %1 从第 %2 层开始</translation>
    </message>
</context>
<context>
    <name>gp::ParallelFormat</name>
    <message>
        <location filename="../widgets/parallel/parallel_format.cpp" line="+62"/>
        <source>%1 (%2 virtual)</source>
        <translation>%1（%2 个虚拟）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 × cp %2</source>
        <translation>%1 × cp %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>dp %1 × tp %2 × pp %3 · %4 × %5 samples · %6 · ZeRO-%7</source>
        <translation>dp %1 × tp %2 × pp %3 · %4 × %5 个样本 · %6 · ZeRO-%7</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Generic (PyTorch)</source>
        <translation>通用（PyTorch）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Selective</source>
        <translation>选择性</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Full</source>
        <translation>完全</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>None</source>
        <translation>无</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Where the step goes (stage %1 finishes last): compute %2 % · recomputation %3 % · collectives in the passes %4 % · bubble and transfers %5 % · gradient sync %6 % · optimizer %7 %</source>
        <translation>一步时间的去向（阶段 %1 最后结束）：计算 %2 % · 重计算 %3 % · 传递中的集合通信 %4 % · 气泡与传输 %5 % · 梯度同步 %6 % · 优化器 %7 %</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Collectives in the passes, by kind: tensor parallel %1 % · context parallel (ring attention) %2 % · expert all-to-alls %3 % · ZeRO-3 gathers %4 %</source>
        <translation>各轮内的集合通信（按类型）：张量并行 %1 % · 上下文并行（环形注意力）%2 % · 专家 all-to-all %3 % · ZeRO-3 收集 %4 %</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Memory: fits with %1 to spare on the fullest GPU (the peak ±%2)</source>
        <translation>显存：可容纳，占用最多的 GPU 仍余 %1（峰值 ±%2）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Memory: out-of-memory risk — %1 to spare of %2 on the fullest GPU, within the ±%3 the peak may be off</source>
        <translation>显存：有显存不足风险 — 占用最多的 GPU 在 %2 中仅余 %1，处于峰值可能偏差的 ±%3 之内</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Memory: out-of-memory risk — %1 over %2 on the fullest GPU, within the ±%3 the peak may be off</source>
        <translation>显存：有显存不足风险 — 占用最多的 GPU 超出 %2 达 %1，处于峰值可能偏差的 ±%3 之内</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Memory: does not fit — %1 over %2 on the fullest GPU (the peak ±%3)</source>
        <translation>显存：放不下 — 占用最多的 GPU 超出 %2 达 %1（峰值 ±%3）</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 samples/s · step %2 ms (±%6 %) · MFU %3 % · bubble %4 % · communication %5 %</source>
        <translation>%1 样本/秒 · 每步 %2 ms（±%6 %） · MFU %3 % · 气泡 %4 % · 通信 %5 %</translation>
    </message>
</context>
<context>
    <name>gp::ParallelHistoryModel</name>
    <message>
        <location filename="../widgets/parallel/parallel_history_model.cpp" line="+47"/>
        <source>does not fit</source>
        <translation>放不下</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1
Global batch %2, layers per stage %3</source>
        <translation>%1
全局批量 %2，各阶段的层 %3</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan</source>
        <translation>方案</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Samples/s</source>
        <translation>样本/秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Step ms</source>
        <translation>每步 ms</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>MFU %</source>
        <translation>MFU %</translation>
    </message>
</context>
<context>
    <name>gp::ParallelSession</name>
    <message>
        <location filename="../app/desktop/parallel_session.cpp" line="+12"/>
        <source>Megatron</source>
        <translation>Megatron</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Published recipe</source>
        <translation>已发表的配方</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exact</source>
        <translation>精确搜索</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DQN</source>
        <translation>DQN</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Random</source>
        <translation>随机</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>Start</source>
        <translation>起点</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>the model is still loading</source>
        <translation>模型仍在加载</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no model is loaded</source>
        <translation>没有加载模型</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a plan search is running: stop it first</source>
        <translation>方案搜索正在运行：请先停止它</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Restore %1</source>
        <translation>恢复 %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>the exact search stopped: the plan was changed by hand</source>
        <translation>精确搜索已停止：计划已手动更改</translation>
    </message>
    <message>
        <location filename="../app/desktop/parallel_session_search.cpp" line="+62"/>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 found no plan: %2</source>
        <translation>%1 没有找到方案：%2</translation>
    </message>
</context>
<context>
    <name>gp::ParallelWindow</name>
    <message>
        <location filename="../app/desktop/parallel_window.cpp" line="+62"/>
        <source>Parallel Plan</source>
        <translation>并行方案</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>No parallel plan for this model: %1</source>
        <translation>此模型没有并行方案：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Parallel plans split a model made of repeated layers, such as zoo:bert_base or zoo:gpt_13b (File ▸ Examples).</source>
        <translation>并行方案切分由重复层构成的模型，例如 zoo:bert_base 或 zoo:gpt_13b（文件 ▸ 示例）。</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 is searching…</source>
        <translation>%1 正在搜索…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>DQN: episode %1, best MFU %2 %</source>
        <translation>DQN：第 %1 回合，最佳 MFU %2 %</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Megatron</source>
        <translation>Megatron</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Megatron-LM&apos;s rule: the smallest tensor × pipeline size that fits, data parallelism over the rest</source>
        <translation>Megatron-LM 的规则：放得下的最小张量 × 流水线规模，其余用数据并行</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Data parallel</source>
        <translation>数据并行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The fastest plan with data parallelism alone (ZeRO 0–3, micro-batches, recomputation)</source>
        <translation>仅用数据并行的最快方案（ZeRO 0–3、微批、重计算）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Published recipe</source>
        <translation>已发表的配方</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The published plan closest in shape (parameters, GPUs, sequence), carried over to this model and cluster: the plan most practitioners would pick</source>
        <translation>形状最接近的已发表方案（参数量、GPU 数、序列长度），迁移到当前模型和集群：多数从业者会选择的方案</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Exact</source>
        <translation>精确搜索</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every plan shape, stage boundaries by dynamic programming, pruned by a lower bound</source>
        <translation>遍历每种方案形状，用动态规划划分阶段边界，以下界剪枝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimize</source>
        <translation>优化</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search with the DQN in the background; its MFU per episode is plotted as it runs</source>
        <translation>在后台用 DQN 搜索；运行时绘制每回合的 MFU</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Stop the search; the best plan found so far is applied</source>
        <translation>停止搜索；应用目前找到的最佳方案</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Back to the first plan shown (undoable)</source>
        <translation>回到最初显示的方案（可撤销）</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export Plan…</source>
        <translation>导出方案…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write the plan file (graphplace-cli parallelize --plan reads it)</source>
        <translation>写出方案文件（graphplace-cli parallelize --plan 可读取）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export Trace…</source>
        <translation>导出跟踪…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write the simulated step as a Chrome trace (Perfetto)</source>
        <translation>将模拟的训练步写成 Chrome 跟踪文件（Perfetto）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export Launch Configuration…</source>
        <translation>导出启动配置…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write the plan as Megatron-LM arguments, NeMo overrides, a torchtitan or DeepSpeed configuration; what the framework cannot express is named</source>
        <translation>将计划写为 Megatron-LM 参数、NeMo 覆盖项、torchtitan 或 DeepSpeed 配置；框架无法表达的部分会被列出</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Import Launch Configuration…</source>
        <translation>导入启动配置…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read Megatron-LM arguments, NeMo recipe overrides, a torchtitan or DeepSpeed configuration as the plan, explain it and set the best plan found beside it</source>
        <translation>将 Megatron-LM 参数、NeMo 配方覆盖、torchtitan 或 DeepSpeed 配置读作方案，解释它，并与找到的最佳方案对比</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Op Graph</source>
        <translation>算子图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model&apos;s ops and their placement on the devices, in the main window</source>
        <translation>在主窗口中查看模型的算子及其在设备上的放置</translation>
    </message>
    <message>
        <location line="+19"/>
        <location line="+42"/>
        <source>Plan</source>
        <translation>方案</translation>
    </message>
    <message>
        <location line="-32"/>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How long the DQN searches</source>
        <translation>DQN 搜索的时长</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Plan</source>
        <translation>方案(&amp;P)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Close</source>
        <translation>关闭(&amp;C)</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Every plan produced; click one to show it again (undoable)</source>
        <translation>产生过的每个方案；单击即可再次显示（可撤销）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>History</source>
        <translation>历史记录</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Optimizer (DQN)</source>
        <translation>优化器（DQN）</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Pipeline (one training step)</source>
        <translation>流水线（一个训练步）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Mesh on the cluster (outlined: tensor-parallel groups)</source>
        <translation>集群上的网格（带外框：张量并行组）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Peak memory per device</source>
        <translation>每个设备的峰值内存</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Stage %1 starts at layer %2</source>
        <translation>阶段 %1 从第 %2 层开始</translation>
    </message>
    <message>
        <location line="+21"/>
        <location line="+11"/>
        <source>Parallel Plan — %1 on %2</source>
        <translation>并行方案 — %1，%2</translation>
    </message>
    <message>
        <location line="-9"/>
        <location line="+11"/>
        <source>Loading %1 as a stack of layers…</source>
        <translation>正在将 %1 加载为层堆栈…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 on %2: %3 layers, hidden %4, %5 heads, %6 G parameters, %7 · %8 devices</source>
        <translation>%1，%2：%3 层，隐藏维度 %4，%5 个注意力头，%6 G 个参数，%7 · %8 个设备</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>mixed precision</source>
        <translation>混合精度</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>fp32</source>
        <translation>fp32</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Does not fit: %1</source>
        <translation>放不下：%1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Layers per stage: %1</source>
        <translation>各阶段的层：%1</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>No plan found that fits beside your plan (%1)</source>
        <translation>在您的方案（%1）之外没有找到能放下的方案</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your plan (%1) is the best found: %2 ms per step</source>
        <translation>您的方案（%1）就是找到的最佳方案：每步 %2 毫秒</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your plan (%1) does not fit; the best plan found runs %2 ms per step.
What changed: %3.</source>
        <translation>您的方案（%1）放不下；找到的最佳方案每步 %2 毫秒。
改动：%3。</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Beside your plan (%1): %2× faster, %3 against %4 ms per step.
What changed: %5.
Where the time moved: %6.</source>
        <translation>与您的方案（%1）相比：快 %2 倍，每步 %3 对 %4 毫秒。
改动：%5。
时间的变化：%6。</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Yours (%1): %2 samples/s, %3 % MFU, %4 GiB peak</source>
        <translation>您的方案（%1）：%2 样本/秒，MFU %3 %，峰值 %4 GiB</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Yours (%1) does not run: %2</source>
        <translation>您的方案（%1）无法运行：%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>; read approximately: %1</source>
        <translation>；近似读取：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>; searching for the best plan…</source>
        <translation>；正在搜索最佳方案…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Import Launch Configuration</source>
        <translation>导入启动配置</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Launch configurations (*.sh *.txt *.toml *.py *.json *.yaml *.yml);;All files (*)</source>
        <translation>启动配置 (*.sh *.txt *.toml *.py *.json *.yaml *.yml);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Stage %1: rank %2 on %3</source>
        <translation>阶段 %1：rank %2，位于 %3</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stage %1: %2 ranks (dp %3 × cp %4 × tp %5), ranks %6–%7 on %8 … %9; the row is every one of them: they run the same passes</source>
        <translation>阶段 %1：%2 个 rank（dp %3 × cp %4 × tp %5），rank %6–%7，位于 %8 … %9；这一行代表其中每一个：它们运行相同的计算</translation>
    </message>
    <message>
        <location line="+26"/>
        <location line="+6"/>
        <location line="+7"/>
        <source>Wrote %1</source>
        <translation>已写入 %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; not exactly expressible in %1: %2</source>
        <translation>；%1 无法精确表达：%2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Export Launch Configuration</source>
        <translation>导出启动配置</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Export Trace</source>
        <translation>导出跟踪</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Export Plan</source>
        <translation>导出方案</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chrome traces (*.json)</source>
        <translation>Chrome Trace 文件 (*.json)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Parallel plan files (*.json)</source>
        <translation>并行方案文件 (*.json)</translation>
    </message>
</context>
<context>
    <name>gp::PipelineView</name>
    <message>
        <location filename="../widgets/parallel/pipeline_view.cpp" line="+85"/>
        <location line="+73"/>
        <source>Stage %1</source>
        <translation>阶段 %1</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>No simulated step to show</source>
        <translation>没有可显示的模拟训练步</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>forward</source>
        <translation>前向</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>backward</source>
        <translation>反向</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>activations sent</source>
        <translation>发送的激活</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>gradients sent back</source>
        <translation>回传的梯度</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>gradient sync</source>
        <translation>梯度同步</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>optimizer step</source>
        <translation>优化器步</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ZeRO gather</source>
        <translation>ZeRO 聚集</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bubble</source>
        <translation>气泡</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>Forward pass of micro-batch %1</source>
        <translation>微批 %1 的前向</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Backward pass of micro-batch %1</source>
        <translation>微批 %1 的反向</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Gradients of micro-batch %1 to stage %2</source>
        <translation>微批 %1 的梯度发往阶段 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activations of micro-batch %1 to stage %2</source>
        <translation>微批 %1 的激活发往阶段 %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Gradient synchronisation, bucket %1</source>
        <translation>梯度同步，桶 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizer step</source>
        <translation>优化器步</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ZeRO weight all-gather</source>
        <translation>ZeRO 权重 all-gather</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stage %1: %2
%3 – %4 ms</source>
        <translation>阶段 %1：%2
%3 – %4 ms</translation>
    </message>
</context>
<context>
    <name>gp::PlanKnob</name>
    <message>
        <location filename="../widgets/parallel/parallel_format.cpp" line="-141"/>
        <source>parameter gather overlapped</source>
        <translation>参数收集已重叠</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>experts over dp</source>
        <translation>专家分布于数据并行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unfused attention</source>
        <translation>非融合注意力</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FlashAttention-2</source>
        <translation>FlashAttention-2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FP8 GEMMs</source>
        <translation>FP8 矩阵乘</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sequence parallel</source>
        <translation>序列并行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TP communication overlapped</source>
        <translation>张量并行通信已重叠</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Megatron-LM</source>
        <translation>Megatron-LM</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DeepSpeed</source>
        <translation>DeepSpeed</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>torchtitan</source>
        <translation>torchtitan</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>optimizer on the CPU</source>
        <translation>优化器在 CPU 上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bf16 Adam moments</source>
        <translation>bf16 Adam 矩</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>8-bit Adam moments</source>
        <translation>8 位 Adam 矩</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>checkpoints on the CPU</source>
        <translation>检查点在 CPU 上</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fp32 gradient accumulation</source>
        <translation>fp32 梯度累加</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>16-bit gradient accumulation</source>
        <translation>16 位梯度累加</translation>
    </message>
</context>
<context>
    <name>gp::ProfileDialog</name>
    <message>
        <location filename="../app/desktop/profile_dialog.cpp" line="+51"/>
        <source>Profile Local GPUs</source>
        <translation>分析本机 GPU</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measures this machine&apos;s GPUs (matrix products, convolutions, memory bandwidth, launch overhead, transfers between each pair) and makes a cluster file with a calibration table from them. The GPUs should be otherwise idle.</source>
        <translation>测量本机的 GPU（矩阵乘法、卷积、显存带宽、启动开销、每对 GPU 之间的传输），并据此生成集群文件及校准表。测量期间 GPU 应保持空闲。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Quick (fewer sizes and repetitions, about 10 s per GPU)</source>
        <translation>快速(&amp;Q)（较少的尺寸与重复次数，每个 GPU 约 10 秒）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Progress appears here, one line per step.</source>
        <translation>进度显示在这里，每步一行。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Save Cluster…</source>
        <translation>保存集群(&amp;S)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write the cluster file and its calibration table next to it, and use them</source>
        <translation>写入集群文件并在其旁边写入校准表，然后使用它们</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>Profiling…</source>
        <translation>正在分析…</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Done in %1 s. Save the cluster to use it.</source>
        <translation>用时 %1 秒完成。保存集群即可使用。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cancelled.</source>
        <translation>已取消。</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The profile failed.</source>
        <translation>分析失败。</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Save Cluster</source>
        <translation>保存集群</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cluster files (*.json)</source>
        <translation>集群文件 (*.json)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Nothing to save: run the profile first.</source>
        <translation>没有可保存的内容：请先运行分析。</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Saved %1.</source>
        <translation>已保存 %1。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saved %1 and %2.</source>
        <translation>已保存 %1 和 %2。</translation>
    </message>
</context>
<context>
    <name>gp::RewardPlot</name>
    <message>
        <location filename="../widgets/reward/reward_plot.cpp" line="+36"/>
        <location line="+205"/>
        <source>mean reward</source>
        <translation>平均奖励</translation>
    </message>
    <message>
        <location line="-201"/>
        <location line="+200"/>
        <source>best of the iteration</source>
        <translation>本次迭代最佳</translation>
    </message>
    <message>
        <location line="-196"/>
        <location line="+190"/>
        <source>best so far</source>
        <translation>目前最佳</translation>
    </message>
    <message>
        <location line="-185"/>
        <source>zero-shot plan</source>
        <translation>零样本方案</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>polishing</source>
        <translation>打磨</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+152"/>
        <source>iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <location line="-151"/>
        <source>reward</source>
        <translation>奖励</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reward of a plan: −√(step time ÷ lower bound). The lower bound is −1; higher is better.
Wheel: zoom · drag: pan · double-click: fit</source>
        <translation>方案的奖励：−√(步时 ÷ 下界)。下界为 −1；越高越好。
滚轮：缩放 · 拖动：平移 · 双击：适应窗口</translation>
    </message>
    <message>
        <location line="+103"/>
        <source>zero-shot: %1 ms</source>
        <translation>零样本：%1 ms</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>lower bound: %1 ms</source>
        <translation>下界：%1 ms</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>best baseline %1: %2 ms</source>
        <translation>最佳基线 %1：%2 ms</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>best so far: %1 ms</source>
        <translation>目前最佳：%1 ms</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>best task of the round</source>
        <translation>本轮最佳任务</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mean over the round&apos;s tasks</source>
        <translation>本轮各任务的平均值</translation>
    </message>
</context>
<context>
    <name>gp::RunWindow</name>
    <message>
        <location filename="../app/desktop/run_window.cpp" line="+24"/>
        <source>infeasible</source>
        <translation>不可行</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Apply Best Plan</source>
        <translation>应用最佳方案</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Place the open model&apos;s ops as the run&apos;s best plan does (the run&apos;s model and cluster must be open)</source>
        <translation>按该运行的最佳方案放置当前模型的算子（须打开该运行的模型和集群）</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Run — %1</source>
        <translation>运行 — %1</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>optimize %1 on %2 (%3 ops)</source>
        <translation>在 %2 上优化 %1（%3 个算子）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pretrain over %1 tasks</source>
        <translation>在 %1 个任务上预训练</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a run</source>
        <translation>一次运行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · %1 ranks</source>
        <translation> · %1 个 rank</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · seed %1</source>
        <translation> · 种子 %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>rank %1 worked %2 s, waited %3 s</source>
        <translation>rank %1 工作 %2 秒，等待 %3 秒</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Round %1: %2</source>
        <translation>第 %1 轮：%2</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Start ms</source>
        <translation>起始 ms</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Best ms</source>
        <translation>最佳 ms</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Gain</source>
        <translation>提升</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Own plan ms</source>
        <translation>自身方案 ms</translation>
    </message>
    <message>
        <location line="+7"/>
        <source> (held out)</source>
        <translation>（留出）</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ops in the best plan</source>
        <translation>最佳方案中的算子数</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>; best plan %1 ms (iteration %2)</source>
        <translation>；最佳方案 %1 ms（第 %2 次迭代）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stopped after %1 s</source>
        <translation>%1 秒后停止</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Finished in %1 s</source>
        <translation>用时 %1 秒完成</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Waiting for the run to write %1…</source>
        <translation>正在等待运行写入 %1…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No event for %1 s: the run may have stopped without finishing (still following)</source>
        <translation>%1 秒内没有新事件：运行可能未结束就已停止（仍在跟踪）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Running: %1 s in</source>
        <translation>运行中：已进行 %1 秒</translation>
    </message>
</context>
<context>
    <name>gp::SuggestionsPanel</name>
    <message>
        <location filename="../widgets/panels/suggestions_panel.cpp" line="+27"/>
        <source>Step</source>
        <translation>步时</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Change</source>
        <translation>变化</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Move</source>
        <translation>调整</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Apply</source>
        <translation>应用</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Apply the selected move (one undo step)</source>
        <translation>应用所选调整（一步可撤销）</translation>
    </message>
</context>
<context>
    <name>gp::TimelineView</name>
    <message>
        <location filename="../widgets/timeline/timeline_model.cpp" line="+111"/>
        <source>%1%</source>
        <comment>share of the step a device is busy</comment>
        <translation>%1%</translation>
    </message>
    <message>
        <location filename="../widgets/timeline/timeline_view.cpp" line="+63"/>
        <source>Step %1</source>
        <translation>单步 %1</translation>
    </message>
    <message>
        <location line="+219"/>
        <source>&lt;b&gt;Tensor %1&lt;/b&gt;&lt;br&gt;%2 from %3 to %4&lt;br&gt;Start: %5&lt;br&gt;Duration: %6</source>
        <translation>&lt;b&gt;张量 %1&lt;/b&gt;&lt;br&gt;%2，从 %3 到 %4&lt;br&gt;开始：%5&lt;br&gt;时长：%6</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;Type: %2&lt;br&gt;Device: %3&lt;br&gt;Start: %4&lt;br&gt;Duration: %5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;类型：%2&lt;br&gt;设备：%3&lt;br&gt;开始：%4&lt;br&gt;时长：%5</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>and %n more</source>
        <translation>
            <numerusform>另有 %n 个</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Fused kernel of %1 ops&lt;/b&gt; (fusion group %2)&lt;br&gt;Device: %3&lt;br&gt;Start: %4&lt;br&gt;Duration: %5&lt;br&gt;%6</source>
        <translation>&lt;b&gt;融合内核（%1 个算子）&lt;/b&gt;（融合组 %2）&lt;br&gt;设备：%3&lt;br&gt;开始：%4&lt;br&gt;时长：%5&lt;br&gt;%6</translation>
    </message>
</context>
</TS>

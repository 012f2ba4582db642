<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="ko_KR">
<context>
    <name>AppOptions</name>
    <message>
        <location filename="../app/desktop/app_options.cpp" line="+23"/>
        <source>graphplace: place the ops of a model&apos;s graph on a GPU cluster, measure and compare.</source>
        <translation>graphplace: 모델 그래프의 연산을 GPU 클러스터에 배치하고 측정 및 비교합니다.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Model file (.onnx, .pt, .dot, .json) or zoo:NAME.</source>
        <translation>모델 파일(.onnx, .pt, .dot, .json) 또는 zoo:NAME.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cluster preset, N servers of one (128x8xH100-IB), JSON file, or cpu (this machine).</source>
        <translation>클러스터 프리셋, 같은 서버 N대(128x8xH100-IB), JSON 파일 또는 cpu(이 컴퓨터).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Placement file to apply.</source>
        <translation>적용할 배치 파일.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Graph mode: inference or training.</source>
        <translation>그래프 모드: inference(추론) 또는 training(학습).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Apply a placement file made for another version of the model.</source>
        <translation>다른 버전의 모델용으로 만든 배치 파일을 적용합니다.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open, lay out, measure, save a PNG of the window and exit.</source>
        <translation>열기, 레이아웃, 측정을 마친 후 창을 PNG로 저장하고 종료합니다.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Window size for --screenshot.</source>
        <translation>--screenshot의 창 크기.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>User interface language (en, zh_CN, ko_KR).</source>
        <translation>사용자 인터페이스 언어(en, zh_CN, ko_KR).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Value of a symbolic input dimension of an ONNX model (e.g. batch_size=8; default 1). Repeatable.</source>
        <translation>ONNX 모델의 심볼릭 입력 차원 값(예: batch_size=8, 기본값 1). 여러 번 지정할 수 있습니다.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Arithmetic the model runs with: fp32, tf32, fp16, bf16 or fp8 (fp16, bf16, fp8: mixed precision).</source>
        <translation>모델이 실행할 연산 정밀도: fp32, tf32, fp16, bf16 또는 fp8 (fp16, bf16, fp8: 혼합 정밀도).</translation>
    </message>
</context>
<context>
    <name>Language</name>
    <message>
        <location filename="../app/desktop/language.cpp" line="+12"/>
        <source>System default</source>
        <translation>시스템 기본값</translation>
    </message>
</context>
<context>
    <name>LaunchFormat</name>
    <message>
        <location filename="../core/launch/launch_formats.cpp" line="+30"/>
        <source>Megatron-LM arguments</source>
        <translation>Megatron-LM 인수</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>NeMo 2.0 recipe overrides</source>
        <translation>NeMo 2.0 레시피 재정의</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>NeMo 1.x configuration</source>
        <translation>NeMo 1.x 구성</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>torchtitan configuration</source>
        <translation>torchtitan 구성</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>torchtitan Python configuration and schedule</source>
        <translation>torchtitan Python 구성 및 스케줄</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>DeepSpeed configuration</source>
        <translation>DeepSpeed 구성</translation>
    </message>
</context>
<context>
    <name>QObject</name>
    <message>
        <location filename="../app/desktop/background_job.h" line="+65"/>
        <source>out of memory</source>
        <translation>메모리 부족</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>unknown error</source>
        <translation>알 수 없는 오류</translation>
    </message>
    <message>
        <location filename="../app/desktop/exporter.cpp" line="+33"/>
        <source>no model is open</source>
        <translation>열린 모델이 없음</translation>
    </message>
    <message>
        <location line="+54"/>
        <source>nothing to draw</source>
        <translation>그릴 내용이 없음</translation>
    </message>
    <message>
        <location line="+23"/>
        <source>cannot write images of type “%1”</source>
        <translation>“%1” 형식의 이미지를 쓸 수 없음</translation>
    </message>
    <message>
        <location filename="../app/desktop/plan_commands.cpp" line="+16"/>
        <source>Move %1 to %2</source>
        <translation>%1을(를) %2(으)로 이동</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Move %n ops to %1</source>
        <translation>
            <numerusform>연산 %n개를 %1(으)로 이동</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/desktop/import_notice.cpp" line="+52"/>
        <source>Symbolic Dimensions</source>
        <translation>심볼릭 차원</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The model&apos;s inputs have named dimensions without a value. The model reopens with these values (a dimension left at its default counts as 1).</source>
        <translation>모델 입력에 값이 없는 이름 있는 차원이 있습니다. 모델을 이 값들로 다시 엽니다(기본값으로 둔 차원은 1로 계산됩니다).</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 (default 1):</source>
        <translation>%1(기본값 1):</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Reopen</source>
        <translation>다시 열기</translation>
    </message>
    <message>
        <location filename="../app/desktop/parallel_export.cpp" line="+23"/>
        <location line="+35"/>
        <location line="+15"/>
        <source>no parallel plan is shown</source>
        <translation>표시된 병렬 계획이 없습니다</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>the file trains in %1 (%2), this view simulates %3; graphplace-cli parallelize --config simulates it in the file&apos;s</source>
        <translation>파일은 %1 (%2)(으)로 학습하고, 이 보기는 %3(으)로 시뮬레이션합니다. graphplace-cli parallelize --config 는 파일의 정밀도로 시뮬레이션합니다</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Import %1</source>
        <translation>%1 가져오기</translation>
    </message>
</context>
<context>
    <name>gp::ClusterPanel</name>
    <message>
        <location filename="../widgets/panels/cluster_panel.cpp" line="+40"/>
        <source>Cluster preset</source>
        <translation>클러스터 프리셋</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Load…</source>
        <translation>불러오기…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Load a cluster description (.json)</source>
        <translation>클러스터 설명 파일 불러오기(.json)</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>Step time</source>
        <translation>스텝 시간</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Lower bound</source>
        <translation>하한</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Ratio</source>
        <translation>비율</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Transfers</source>
        <translation>전송량</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Status</source>
        <translation>상태</translation>
    </message>
    <message>
        <location line="+31"/>
        <source>%1 (file)</source>
        <translation>%1(파일)</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>&lt;b&gt;%1 × %2&lt;/b&gt;&lt;br&gt;%3 · %4 TFLOPS f32 · %5 TFLOPS f16</source>
        <translation>&lt;b&gt;%1 × %2&lt;/b&gt;&lt;br&gt;%3 · %4 TFLOPS f32 · %5 TFLOPS f16</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 · %2 µs per op · %3 kept</source>
        <translation>%1 · 연산당 %2 µs · %3 예약</translation>
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
        <translation>하한의 %1배</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>✓ Feasible</source>
        <translation>✓ 실행 가능</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>✗ Not feasible</source>
        <translation>✗ 실행 불가</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>✗ %1</source>
        <translation>✗ %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Not measured</source>
        <translation>측정 안 됨</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Load cluster</source>
        <translation>클러스터 불러오기</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cluster descriptions (*.json);;All files (*)</source>
        <translation>클러스터 설명 파일 (*.json);;모든 파일 (*)</translation>
    </message>
</context>
<context>
    <name>gp::CostModelSession</name>
    <message>
        <location filename="../app/desktop/cost_model_session.cpp" line="+105"/>
        <source>A measurement is already running</source>
        <translation>이미 측정이 실행 중입니다</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No model is open</source>
        <translation>열린 모델이 없습니다</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The shipped learned model %1 is missing (resources/costmodels): choose one with Learned Model…</source>
        <translation>기본 제공 학습 모델 %1이(가) 없습니다(resources/costmodels). 학습 모델…로 선택하세요</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The shipped roofline %1 is missing (resources/costmodels): choose one with Roofline…</source>
        <translation>기본 제공 루프라인 %1이(가) 없습니다(resources/costmodels). 루프라인…으로 선택하세요</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: no such file</source>
        <translation>%1: 파일이 없습니다</translation>
    </message>
</context>
<context>
    <name>gp::CostModelWindow</name>
    <message>
        <location filename="../app/desktop/cost_model_window.cpp" line="+52"/>
        <source>threads %1 · layout %2 · tiles %3</source>
        <translation>스레드 %1 · 레이아웃 %2 · 타일 %3</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>missing</source>
        <translation>없음</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (shipped)</source>
        <translation>%1 (기본 제공)</translation>
    </message>
    <message>
        <location line="+14"/>
        <location line="+103"/>
        <source>Cost Model</source>
        <translation>비용 모델</translation>
    </message>
    <message>
        <location line="-72"/>
        <source>Kendall&apos;s τ (−1…1) and ordered-pair accuracy (OPA, 0…1) say how well each model orders the configurations of one kernel (threads, layout, tiles), averaged over the kernels; 1 is a perfect order. Points on the dashed line are exact; above it, a model predicts slower than measured.</source>
        <translation>Kendall τ(−1…1)와 순서쌍 정확도(OPA, 0…1)는 각 모델이 한 커널의 구성(스레드, 레이아웃, 타일)을 얼마나 잘 정렬하는지를 커널 평균으로 나타냅니다. 1은 완벽한 순서입니다. 점선 위의 점은 정확한 예측이고, 점선보다 위쪽은 모델이 측정보다 느리게 예측한 것입니다.</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Measuring kernel %1 of %2 on this CPU…</source>
        <translation>이 CPU에서 커널 %2개 중 %1번째 측정 중…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Predicting %1 kernels with both models…</source>
        <translation>두 모델로 커널 %1개 예측 중…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Stopped; nothing was predicted.</source>
        <translation>중지됨. 예측한 것이 없습니다.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1: kernels on this CPU</source>
        <translation>%1: 이 CPU의 커널</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measure times up to %1 kernels of the model on this CPU and predicts them with both models.</source>
        <translation>측정은 이 CPU에서 모델의 커널을 최대 %1개까지 시간 측정하고 두 모델로 예측합니다.</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Measure</source>
        <translation>측정</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time the model&apos;s kernels on this CPU in the background and predict them with both models</source>
        <translation>백그라운드에서 이 CPU로 모델의 커널 시간을 측정하고 두 모델로 예측합니다</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop</source>
        <translation>중지</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Stop measuring</source>
        <translation>측정 중지</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Learned Model…</source>
        <translation>학습 모델…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Predict with another learned kernel model (graphplace-cli costmodel train --out)</source>
        <translation>다른 학습된 커널 모델로 예측합니다(graphplace-cli costmodel train --out)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Roofline…</source>
        <translation>루프라인…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compare with another fitted roofline (graphplace-cli costmodel train --roofline-out)</source>
        <translation>다른 적합된 루프라인과 비교합니다(graphplace-cli costmodel train --roofline-out)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shipped Models</source>
        <translation>기본 제공 모델</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use the models shipped in resources/costmodels again</source>
        <translation>resources/costmodels의 기본 제공 모델을 다시 사용합니다</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Kernels </source>
        <translation>커널 수 </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The most distinct kernels measured, evenly spaced over the model</source>
        <translation>측정할 서로 다른 커널의 최대 개수(모델 전체에서 고르게 선택)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>  Repeats </source>
        <translation>  반복 </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Timed runs per configuration; the median is kept</source>
        <translation>구성마다 시간을 재는 실행 횟수. 중앙값을 사용합니다</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Cost Model</source>
        <translation>비용 모델(&amp;C)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Close</source>
        <translation>닫기(&amp;C)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Cost Model — %1</source>
        <translation>비용 모델 — %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Learned model: %1 · Fitted roofline: %2</source>
        <translation>학습 모델: %1 · 적합된 루프라인: %2</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Learned Kernel Model</source>
        <translation>학습된 커널 모델</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Learned cost models (*.pt)</source>
        <translation>학습된 비용 모델 (*.pt)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fitted Roofline</source>
        <translation>적합된 루프라인</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Fitted rooflines (*.json)</source>
        <translation>적합된 루프라인 (*.json)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Measuring the model&apos;s kernels on this CPU…</source>
        <translation>이 CPU에서 모델의 커널 측정 중…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1: kernels on %2</source>
        <translation>%1: %2의 커널</translation>
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
        <translation>학습 모델</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>fitted roofline</source>
        <translation>적합된 루프라인</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 kernels, %2 samples (kernel × configuration) measured and predicted in %3 s; hover a point for its kernel.</source>
        <translation>커널 %1개, 샘플 %2개(커널 × 구성)를 %3초 만에 측정하고 예측했습니다. 점 위에 마우스를 올리면 커널이 표시됩니다.</translation>
    </message>
</context>
<context>
    <name>gp::CostScatterPlot</name>
    <message>
        <location filename="../widgets/costmodel/cost_scatter_plot.cpp" line="+50"/>
        <source>y = x (exact)</source>
        <translation>y = x (정확)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>learned model</source>
        <translation>학습 모델</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>fitted roofline</source>
        <translation>적합된 루프라인</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>measured time on this CPU</source>
        <translation>이 CPU에서 측정한 시간</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>predicted time</source>
        <translation>예측 시간</translation>
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
        <translation>측정: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>learned model: %1 (%2)</source>
        <translation>학습 모델: %1 (%2)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>fitted roofline: %1 (%2)</source>
        <translation>적합된 루프라인: %1 (%2)</translation>
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
            <numerusform>연산 %Ln개</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-52"/>
        <location line="+37"/>
        <source>%Ln devices</source>
        <translation>
            <numerusform>장치 %Ln개</numerusform>
        </translation>
    </message>
    <message>
        <location line="+172"/>
        <source>%1: %2 devices, %3 ops (%4 %)
Click to hide its devices.</source>
        <translation>%1: 장치 %2개, 연산 %3개 (%4 %)
클릭하면 장치를 숨깁니다.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: %2 devices, %3 ops (%4 %)
Click to show its devices.</source>
        <translation>%1: 장치 %2개, 연산 %3개 (%4 %)
클릭하면 장치를 표시합니다.</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>%1: %2 ops (%3 %)
Drop ops here to move them to %1; double-click to select its ops.</source>
        <translation>%1: 연산 %2개(%3%)
연산을 여기에 놓으면 %1(으)로 이동합니다. 두 번 클릭하면 해당 연산을 모두 선택합니다.</translation>
    </message>
</context>
<context>
    <name>gp::DeviceMemoryPanel</name>
    <message>
        <location filename="../widgets/parallel/device_memory_panel.cpp" line="+36"/>
        <source>not used by the plan</source>
        <translation>계획에서 사용하지 않음</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>stage %1: weights %2 · gradients %3 · optimizer state %4 · activations %5 · NCCL buffers %6 · cuBLAS workspaces %7</source>
        <translation>스테이지 %1: 가중치 %2 · 그래디언트 %3 · 옵티마이저 상태 %4 · 활성값 %5 · NCCL 버퍼 %6 · cuBLAS 작업 공간 %7</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> · the optimizer step&apos;s fp32 gradient copy %1, counted in place of the activations</source>
        <translation> · 옵티마이저 스텝의 fp32 그래디언트 사본 %1, 활성값 대신 계산됨</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · reserved by PyTorch&apos;s caching allocator %1</source>
        <translation> · PyTorch 캐싱 할당자가 예약한 메모리 %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>rank %1, %2</source>
        <translation>랭크 %1, %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rank %1, stage %2</source>
        <translation>랭크 %1, 스테이지 %2</translation>
    </message>
</context>
<context>
    <name>gp::DeviceTreeModel</name>
    <message>
        <location filename="../widgets/panels/device_tree_model.cpp" line="+134"/>
        <source>Device</source>
        <translation>장치</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kind</source>
        <translation>종류</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Peak memory / capacity</source>
        <translation>최대 메모리 / 용량</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Util.</source>
        <translation>사용률</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Busy</source>
        <translation>사용 시간</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fullest</source>
        <translation>가장 찬 GPU</translation>
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
        <translation>%1: 최대 메모리 %2 / %3: 용량보다 %4 초과</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1: peak memory %2 of %3 (%4 %)</source>
        <translation>%1: 최대 메모리 %2 / %3 (%4 %)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 (%2): capacity %3</source>
        <translation>%1 (%2): 용량 %3</translation>
    </message>
    <message numerus="yes">
        <location line="+41"/>
        <source>%1 (%n GPU(s), %2 over)</source>
        <translation>
            <numerusform>%1 (GPU %n개, %2개 초과)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%1 (%n GPU(s))</source>
        <translation>
            <numerusform>%1 (GPU %n개)</numerusform>
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
            <numerusform>%1: GPU %n개, 각각 최대 %2; 측정 전</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%1: %n GPU(s), peak memory %2 to %3 of %4</source>
        <translation>
            <numerusform>%1: GPU %n개, 최대 메모리 %2 ~ %3 / %4</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fullest: %1 (%2)</source>
        <translation>가장 찬 GPU: %1 (%2)</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n GPU(s) over capacity</source>
        <translation>
            <numerusform>GPU %n개 용량 초과</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Busiest: %1 (%2 ms)</source>
        <translation>가장 바쁜 GPU: %1 (%2 ms)</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n GPU(s) not used</source>
        <translation>
            <numerusform>GPU %n개 사용 안 함</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::DeviceTreeView</name>
    <message>
        <location filename="../widgets/panels/device_tree_view.cpp" line="+56"/>
        <source>Filter devices by name</source>
        <translation>이름으로 장치 필터</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show the servers and GPUs whose name contains this text (node12, gpu3, node12/gpu3)</source>
        <translation>이름에 이 텍스트가 들어 있는 서버와 GPU 표시 (node12, gpu3, node12/gpu3)</translation>
    </message>
</context>
<context>
    <name>gp::Document</name>
    <message>
        <location filename="../app/desktop/document.cpp" line="+142"/>
        <source>Opening %1…</source>
        <translation>%1 여는 중…</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>%1: the placement file could not be applied</source>
        <translation>%1: 배치 파일을 적용할 수 없습니다</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Single device (as opened)</source>
        <translation>단일 장치(열었을 때 상태)</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>Previous plan, on %1</source>
        <translation>이전 계획, %1에서</translation>
    </message>
    <message numerus="yes">
        <location line="+24"/>
        <source>%n moved op(s) left their fusion groups: ops on different devices never fuse.</source>
        <translation>
            <numerusform>이동한 연산 %n개가 퓨전 그룹에서 빠졌습니다: 서로 다른 장치의 연산은 퓨전되지 않습니다.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Open placement %1</source>
        <translation>배치 파일 %1 열기</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Placement file %1</source>
        <translation>배치 파일 %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Restore “%1”</source>
        <translation>“%1” 복원</translation>
    </message>
    <message>
        <location line="+9"/>
        <location line="+107"/>
        <source>Current plan</source>
        <translation>현재 계획</translation>
    </message>
    <message>
        <location line="-98"/>
        <source>Measuring…</source>
        <translation>측정 중…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Measuring failed: %1</source>
        <translation>측정 실패: %1</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Running baseline %1…</source>
        <translation>베이스라인 %1 실행 중…</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Running %n baselines…</source>
        <translation>
            <numerusform>베이스라인 %n개 실행 중…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Baseline %1</source>
        <translation>베이스라인 %1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Baselines failed: %1</source>
        <translation>베이스라인 실행 실패: %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Apply baseline %1</source>
        <translation>베이스라인 %1 적용</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Baselines cancelled</source>
        <translation>베이스라인 실행이 취소됨</translation>
    </message>
    <message>
        <location filename="../app/desktop/job_rules.cpp" line="+27"/>
        <location line="+19"/>
        <source>The optimizer is running: stop it to change the plan.</source>
        <translation>최적화기가 실행 중입니다. 계획을 바꾸려면 먼저 중지하세요.</translation>
    </message>
    <message>
        <location line="-15"/>
        <source>The optimizer is already running.</source>
        <translation>최적화기가 이미 실행 중입니다.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Baselines are running: the optimizer starts once they finish or are cancelled.</source>
        <translation>기준 방법이 실행 중입니다. 끝나거나 취소된 뒤에 최적화기를 시작할 수 있습니다.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Baselines are running: measure on the GPUs once they finish or are cancelled.</source>
        <translation>기준 방법이 실행 중입니다. 끝나거나 취소된 뒤에 GPU에서 측정하세요.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The plan is running on the GPUs: profile them once it has finished.</source>
        <translation>배치가 GPU에서 실행 중입니다. 끝난 뒤에 GPU를 프로파일링하세요.</translation>
    </message>
    <message>
        <location filename="../app/desktop/optimize_document.cpp" line="+34"/>
        <source>Optimizing…</source>
        <translation>최적화 중…</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>%1 of %2 s</source>
        <translation>%2초 중 %1초</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Optimizing: polishing the best plan, %1</source>
        <translation>최적화 중: 최적 계획 다듬는 중, %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizing: polishing the best plan</source>
        <translation>최적화 중: 최적 계획 다듬는 중</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizing: iteration %1, %2</source>
        <translation>최적화 중: 반복 %1, %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizing: iteration %1 of %2</source>
        <translation>최적화 중: 반복 %1 / %2</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Optimizer failed: %1</source>
        <translation>최적화 실패: %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The optimizer stopped before its first iteration.</source>
        <translation>최적화기가 첫 반복 전에 중지되었습니다.</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n iteration(s)</source>
        <translation>
            <numerusform>반복 %n회</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>, %n polish move(s)</source>
        <translation>
            <numerusform>, 다듬기 %n회</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizer (%1, zero-shot)</source>
        <translation>최적화기 (%1, 제로샷)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizer (%1, stopped after %2)</source>
        <translation>최적화기 (%1, %2 후 중지)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizer (%1, %2)</source>
        <translation>최적화기 (%1, %2)</translation>
    </message>
    <message>
        <location filename="../app/desktop/plan_edit_document.cpp" line="+46"/>
        <source>Select ops to set their priority.</source>
        <translation>우선순위를 설정할 연산을 선택하십시오.</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Set priority of %1 to %2</source>
        <translation>%1의 우선순위를 %2(으)로 설정</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Set priority of %n ops to %1</source>
        <translation>
            <numerusform>연산 %n개의 우선순위를 %1(으)로 설정</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Cannot fuse: select at least two ops.</source>
        <translation>퓨전할 수 없음: 연산을 두 개 이상 선택하십시오.</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>Cannot fuse %n ops: they are on different devices (%1); ops on different devices never fuse.</source>
        <translation>
            <numerusform>연산 %n개를 퓨전할 수 없음: 서로 다른 장치(%1)에 있습니다. 서로 다른 장치의 연산은 퓨전되지 않습니다.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>These %n ops already form fusion group %1.</source>
        <translation>
            <numerusform>이 연산 %n개는 이미 퓨전 그룹 %1입니다.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Cannot fuse %n ops: %1.</source>
        <translation>
            <numerusform>연산 %n개를 퓨전할 수 없음: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Fuse %n ops</source>
        <translation>
            <numerusform>연산 %n개 퓨전</numerusform>
        </translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Cannot unfuse: none of the selected ops is fused.</source>
        <translation>퓨전 해제할 수 없음: 선택한 연산 중 퓨전된 것이 없습니다.</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Unfuse %n ops</source>
        <translation>
            <numerusform>연산 %n개 퓨전 해제</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n fusion group(s) dissolved as well: what was left of them could not run as one kernel.</source>
        <translation>
            <numerusform>퓨전 그룹 %n개도 해체되었습니다: 남은 연산이 하나의 커널로 실행될 수 없습니다.</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../app/desktop/calibration_document.cpp" line="+70"/>
        <source>Current plan, calibrated with %1</source>
        <translation>현재 배치, %1(으)로 보정됨</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Current plan, without calibration</source>
        <translation>현재 배치, 보정 없음</translation>
    </message>
    <message>
        <location filename="../app/desktop/job_rules.cpp" line="-5"/>
        <source>The plan is already running on the GPUs.</source>
        <translation>이 배치는 이미 GPU에서 실행 중입니다.</translation>
    </message>
    <message>
        <location filename="../app/desktop/gpu_document.cpp" line="+21"/>
        <source>Measuring on GPUs…</source>
        <translation>GPU에서 측정 중…</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Measure on GPUs cancelled</source>
        <translation>GPU 측정이 취소됨</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measure on GPUs failed: %1</source>
        <translation>GPU 측정 실패: %1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The plan changed while it ran on the GPUs: the measurement was dropped.</source>
        <translation>GPU에서 실행되는 동안 배치가 바뀌어 측정 결과를 버렸습니다.</translation>
    </message>
    <message>
        <location filename="../app/desktop/job_rules.cpp" line="-8"/>
        <location line="+5"/>
        <source>The plan is running on the GPUs: wait until it finishes, or cancel it.</source>
        <translation>배치가 GPU에서 실행 중입니다. 끝날 때까지 기다리거나 취소하세요.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The optimizer is running: stop it to measure on the GPUs.</source>
        <translation>최적화기가 실행 중입니다. GPU에서 측정하려면 먼저 중지하세요.</translation>
    </message>
    <message>
        <location filename="../app/desktop/calibration_document.cpp" line="-34"/>
        <source>%1: the table has no entries, so it calibrates nothing</source>
        <translation>%1: 테이블에 항목이 없어 아무것도 보정하지 않습니다</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1: its device kinds (%2) include none of cluster %3&apos;s (%4), so it calibrates nothing</source>
        <translation>%1: 장치 종류(%2) 중 클러스터 %3의 장치 종류(%4)와 일치하는 것이 없어 아무것도 보정하지 않습니다</translation>
    </message>
</context>
<context>
    <name>gp::GpuAvailability</name>
    <message>
        <location filename="../app/desktop/gpu_availability.cpp" line="+38"/>
        <source>no NVIDIA GPU found</source>
        <translation>NVIDIA GPU를 찾을 수 없음</translation>
    </message>
    <message>
        <location line="+33"/>
        <location line="+4"/>
        <source>Looking for GPUs…</source>
        <translation>GPU를 찾는 중…</translation>
    </message>
</context>
<context>
    <name>gp::GraphSearchBar</name>
    <message>
        <location filename="../widgets/graph/graph_search_bar.cpp" line="+16"/>
        <source>Search ops…</source>
        <translation>연산 검색…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Name</source>
        <translation>이름</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Regex</source>
        <translation>정규식</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Op type</source>
        <translation>연산 유형</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Previous match (Shift+Enter)</source>
        <translation>이전 일치 항목(Shift+Enter)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Next match (Enter)</source>
        <translation>다음 일치 항목(Enter)</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>No matches</source>
        <translation>일치 항목 없음</translation>
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
        <translation>그래프 레이아웃 중…</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Laying out the graph… %1%</source>
        <translation>그래프 레이아웃 중… %1%</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>not enough memory to lay out this many boxes</source>
        <translation>이렇게 많은 상자를 배치할 메모리가 부족합니다</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Layout failed: %1</source>
        <translation>레이아웃 실패: %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>no result</source>
        <translation>결과 없음</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Refining the layout (Graphviz)…</source>
        <translation>레이아웃 다듬는 중(Graphviz)…</translation>
    </message>
    <message>
        <location filename="../widgets/graph/graph_view_colors.cpp" line="+182"/>
        <source>Start time</source>
        <translation>시작 시간</translation>
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
        <translation>연산 시간(로그 스케일)</translation>
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
        <translation>여유 시간: 없음 — 모든 연산이 임계 경로에 있습니다</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Slack (critical path outlined)</source>
        <translation>여유 시간 (임계 경로 표시)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>0 (critical)</source>
        <translation>0 (임계)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Prediction error: measure in Run ▸ Cost Model…</source>
        <translation>예측 오차: 실행 ▸ 비용 모델…에서 측정하세요</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Learned model&apos;s error |ln(predicted / measured)|</source>
        <translation>학습 모델의 오차 |ln(예측 / 측정)|</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>0 (exact)</source>
        <translation>0 (정확)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 (×%2 off)</source>
        <translation>%1 (×%2 차이)</translation>
    </message>
    <message>
        <location filename="../widgets/graph/graph_view_input.cpp" line="+217"/>
        <source>Assign to</source>
        <translation>할당 대상</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+55"/>
        <source>Device %1</source>
        <translation>장치 %1</translation>
    </message>
    <message>
        <location line="-52"/>
        <source>%1	%2</source>
        <translation>%1	%2</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Expand group</source>
        <translation>그룹 펼치기</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Collapse “%1”</source>
        <translation>“%1” 접기</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Select all ops of the group</source>
        <translation>그룹의 모든 연산 선택</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Zoom to fit</source>
        <translation>화면에 맞추기</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Expand all</source>
        <translation>모두 펼치기</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Collapse all</source>
        <translation>모두 접기</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>unplaced</source>
        <translation>미배치</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 · %3 · %4 GFLOP</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 · %3 · %4 GFLOP</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Priority %1 · %2</source>
        <translation>우선순위 %1 · %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FIFO</source>
        <translation>FIFO</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fusion group %1</source>
        <translation>퓨전 그룹 %1</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not fused</source>
        <translation>퓨전 안 됨</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;%2 ops; double-click to expand</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;연산 %2개, 두 번 클릭하여 펼치기</translation>
    </message>
    <message>
        <location line="+19"/>
        <location filename="../widgets/graph/graph_view_paint.cpp" line="+315"/>
        <source>1 op</source>
        <translation>연산 1개</translation>
    </message>
    <message>
        <location line="+0"/>
        <location filename="../widgets/graph/graph_view_paint.cpp" line="+0"/>
        <source>%1 ops</source>
        <translation>연산 %1개</translation>
    </message>
    <message>
        <location filename="../widgets/graph/graph_view_paint.cpp" line="-246"/>
        <source>No graph loaded.</source>
        <translation>불러온 그래프가 없습니다.</translation>
    </message>
    <message>
        <location line="+245"/>
        <source>%1 calls · %2 ops</source>
        <translation>호출 %1회 · 연산 %2개</translation>
    </message>
</context>
<context>
    <name>gp::HistoryModel</name>
    <message>
        <location filename="../widgets/panels/history_model.cpp" line="+85"/>
        <source>Simulated step time</source>
        <translation>시뮬레이션된 스텝 시간</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Step time divided by the lower bound (1.00 is the best possible)</source>
        <translation>스텝 시간을 하한으로 나눈 값(1.00이 이론상 최선)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Step time difference to the previous feasible entry</source>
        <translation>이전 실행 가능 항목과의 스텝 시간 차이</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>When the plan was measured</source>
        <translation>계획을 측정한 시각</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Plan</source>
        <translation>계획</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Step (ms)</source>
        <translation>스텝(ms)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>× bound</source>
        <translation>× 하한</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Δ vs previous</source>
        <translation>Δ 이전 대비</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Feasible</source>
        <translation>실행 가능</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Time</source>
        <translation>시각</translation>
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
        <translation>%1 ms(%2%)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Yes</source>
        <translation>예</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>No</source>
        <translation>아니요</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>as opened</source>
        <translation>열었을 때</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>baseline</source>
        <translation>베이스라인</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>manual edit</source>
        <translation>수동 편집</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>optimizer</source>
        <translation>옵티마이저</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>placement file</source>
        <translation>배치 파일</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 (%2)</source>
        <translation>%1(%2)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1, computed in %2 s</source>
        <translation>%1, 계산 시간 %2 s</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not feasible</source>
        <translation>실행 불가</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>No earlier feasible entry to compare with</source>
        <translation>비교할 이전 실행 가능 항목이 없음</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Compared with #%1 (%2)</source>
        <translation>#%1(%2)과(와) 비교</translation>
    </message>
</context>
<context>
    <name>gp::HistoryPanel</name>
    <message>
        <location filename="../widgets/panels/history_panel.cpp" line="+55"/>
        <source>Restore</source>
        <translation>복원</translation>
    </message>
    <message>
        <location line="+64"/>
        <source>Make the selected entry&apos;s plan the current plan</source>
        <translation>선택한 항목의 계획을 현재 계획으로 설정</translation>
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
            <numerusform>#%1 대 #%2: %3 ms(%4%), 연산 %Ln개 이동됨</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>#%1: %2
#%3: %4</source>
        <translation>#%1: %2
#%3: %4</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>#%1 %2: %3 ms. Select a second entry to compare.</source>
        <translation>#%1 %2: %3 ms. 비교할 항목을 하나 더 선택하세요.</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>#%1 %2: not feasible (%3).</source>
        <translation>#%1 %2: 실행 불가(%3).</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Measured plans appear here.</source>
        <translation>측정한 계획이 여기에 표시됩니다.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Select two entries to compare them.</source>
        <translation>비교할 항목 두 개를 선택하세요.</translation>
    </message>
</context>
<context>
    <name>gp::ImportBanner</name>
    <message numerus="yes">
        <location filename="../app/desktop/import_notice.cpp" line="-38"/>
        <source>%n op(s) have shapes the importer could not learn; their cost is estimated.</source>
        <translation>
            <numerusform>연산 %n개의 형상을 가져오기에서 알 수 없어 비용을 추정했습니다.</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Show them</source>
        <translation>보기</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 = %2</source>
        <translation>%1 = %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 = %2 (default)</source>
        <translation>%1 = %2(기본값)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Symbolic dimensions: %1.</source>
        <translation>심볼릭 차원: %1.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Set…</source>
        <translation>설정…</translation>
    </message>
</context>
<context>
    <name>gp::LayerStackView</name>
    <message>
        <location filename="../widgets/parallel/layer_stack_view.cpp" line="+107"/>
        <source>Stage %1 · layers %2–%3 · tp %4 · dp %5</source>
        <translation>스테이지 %1 · 레이어 %2–%3 · tp %4 · dp %5</translation>
    </message>
    <message>
        <location line="+39"/>
        <source> · recompute</source>
        <translation> · 재계산</translation>
    </message>
    <message>
        <location line="-3"/>
        <source>S%1 · tp %2 · dp %3</source>
        <translation>S%1 · tp %2 · dp %3</translation>
    </message>
    <message>
        <location line="-30"/>
        <source> · chunk %1</source>
        <translation> · 청크 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · %1 recomputation</source>
        <translation> · %1 재계산</translation>
    </message>
    <message>
        <location line="+32"/>
        <source> · selective</source>
        <translation> · 선택적</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>P</source>
        <translation>앞</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>E</source>
        <translation>뒤</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>Drag to move the boundary between stages %1 and %2</source>
        <translation>드래그하여 스테이지 %1과 %2 사이의 경계를 옮깁니다</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>%1 (stage %2)
%3 GFLOP forward per sample, %4 M parameters</source>
        <translation>%1 (스테이지 %2)
샘플당 순전파 %3 GFLOP, 매개변수 %4 M개</translation>
    </message>
</context>
<context>
    <name>gp::MainWindow</name>
    <message>
        <location filename="../app/desktop/main_window.cpp" line="+104"/>
        <source>Cluster</source>
        <translation>클러스터</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Filter devices by name</source>
        <translation>이름으로 장치 필터</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Devices</source>
        <translation>장치</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+230"/>
        <source>Timeline</source>
        <translation>타임라인</translation>
    </message>
    <message>
        <location line="-229"/>
        <source>History</source>
        <translation>기록</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reward</source>
        <translation>보상</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Inspector</source>
        <translation>검사기</translation>
    </message>
    <message>
        <location line="+178"/>
        <source>To %1</source>
        <translation>%1(으)로</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>To Another Device…</source>
        <translation>다른 장치로…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Assign Selection</source>
        <translation>선택 항목 할당</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Device name (node12/gpu3):</source>
        <translation>장치 이름 (node12/gpu3):</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1: no such device on %2</source>
        <translation>%1: %2에 없는 장치</translation>
    </message>
    <message numerus="yes">
        <location line="+30"/>
        <source>Timeline (%n idle device(s) not shown)</source>
        <translation>
            <numerusform>타임라인 (유휴 장치 %n개 숨김)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+20"/>
        <source>%n op(s) placed differently in “%1” and “%2” are outlined in the graph</source>
        <translation>
            <numerusform>“%1”과(와) “%2”에서 다르게 배치된 연산 %n개가 그래프에 윤곽선으로 표시됩니다</numerusform>
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
        <translation>%1(%2) — graphplace</translation>
    </message>
    <message>
        <location line="+8"/>
        <location filename="../app/desktop/main_window_explain.cpp" line="+217"/>
        <source>No model open</source>
        <translation>열린 모델 없음</translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%Ln op(s)</source>
        <translation>
            <numerusform>연산 %Ln개</numerusform>
        </translation>
    </message>
    <message>
        <location line="+4"/>
        <source>step %1 ms  ·  bound %2 ms  ·  ×%3</source>
        <translation>스텝 %1 ms  ·  하한 %2 ms  ·  ×%3</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>infeasible: %1</source>
        <translation>실행 불가: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>plan edited, not measured (F5)</source>
        <translation>계획 수정됨, 측정 안 됨(F5)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>laying out…</source>
        <translation>레이아웃 중…</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>%1: open the model first, then its placement file</source>
        <translation>%1: 모델을 먼저 연 다음 해당 배치 파일을 여세요</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1: open a model first, then a cluster file</source>
        <translation>%1: 모델을 먼저 연 다음 클러스터 파일을 여세요</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Saved %1</source>
        <translation>%1 저장됨</translation>
    </message>
    <message>
        <location filename="../app/desktop/main_window_actions.cpp" line="+46"/>
        <source>&amp;Open…</source>
        <translation>열기(&amp;O)…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Measure</source>
        <translation>측정(&amp;M)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Simulate the current plan and add it to the history (F5)</source>
        <translation>현재 계획을 시뮬레이션하고 기록에 추가합니다(F5)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run &amp;All Baselines</source>
        <translation>모든 베이스라인 실행(&amp;A)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Cancel</source>
        <translation>취소</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop the running baselines and the graph layout</source>
        <translation>실행 중인 기준 방법과 그래프 레이아웃을 중지합니다</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Zoom to &amp;Fit</source>
        <translation>화면에 맞추기(&amp;F)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Optimize</source>
        <translation>최적화(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Improve the current plan with the reinforcement-learning optimizer (options: the arrow)</source>
        <translation>강화 학습 최적화기로 현재 계획을 개선합니다 (옵션: 화살표)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Stop</source>
        <translation>중지(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop the optimizer; its best plan so far is kept</source>
        <translation>최적화기를 중지합니다. 지금까지의 최적 계획은 유지됩니다</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Set &amp;Priority…</source>
        <translation>우선순위 설정(&amp;P)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Type the selected ops&apos; priority in the inspector (Return applies)</source>
        <translation>검사기에 선택한 연산의 우선순위를 입력하십시오(Enter로 적용)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Run the selected ops as one kernel</source>
        <translation>선택한 연산을 하나의 커널로 실행</translation>
    </message>
    <message>
        <location line="-1"/>
        <source>Fu&amp;se Selection</source>
        <translation>선택 항목 퓨전(&amp;S)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>U&amp;nfuse Selection</source>
        <translation>선택 항목 퓨전 해제(&amp;N)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Take the selected ops out of their fusion groups</source>
        <translation>선택한 연산을 퓨전 그룹에서 빼기</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>&amp;File</source>
        <translation>파일(&amp;F)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Open &amp;Recent</source>
        <translation>최근 파일 열기(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Examples</source>
        <translation>예제(&amp;E)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Symbolic &amp;Dimensions…</source>
        <translation>심볼릭 차원(&amp;D)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set the values of the model&apos;s symbolic input dimensions and reopen it</source>
        <translation>모델의 심볼릭 입력 차원 값을 설정하고 다시 엽니다</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Apply &amp;Placement File…</source>
        <translation>배치 파일 적용(&amp;P)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Apply Placement File</source>
        <translation>배치 파일 적용</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Placement files (*.json);;All files (*)</source>
        <translation>배치 파일 (*.json);;모든 파일 (*)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Load &amp;Cluster…</source>
        <translation>클러스터 불러오기(&amp;C)…</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Load Cluster</source>
        <translation>클러스터 불러오기</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Cluster files (*.json);;All files (*)</source>
        <translation>클러스터 파일 (*.json);;모든 파일 (*)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Attach to &amp;Run…</source>
        <translation>실행에 연결(&amp;R)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Follow the event log of an optimize or pretrain run (--events FILE), running or finished</source>
        <translation>optimize 또는 pretrain 실행의 이벤트 로그(--events FILE)를 실행 중이거나 끝난 상태로 따라갑니다</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Attach to Run</source>
        <translation>실행에 연결</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Run event logs (*.jsonl);;All files (*)</source>
        <translation>실행 이벤트 로그 (*.jsonl);;모든 파일 (*)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Export</source>
        <translation>내보내기(&amp;E)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Placement File…</source>
        <translation>배치 파일(&amp;P)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Annotated &amp;ONNX…</source>
        <translation>주석이 추가된 ONNX(&amp;O)…</translation>
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
        <translation>그래프 이미지(&amp;G)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>T&amp;imeline Image…</source>
        <translation>타임라인 이미지(&amp;I)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Reward Plot Image…</source>
        <translation>보상 그래프 이미지(&amp;R)…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Plan Re&amp;port…</source>
        <translation>계획 보고서(&amp;P)…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Quit</source>
        <translation>종료(&amp;Q)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>&amp;Edit</source>
        <translation>편집(&amp;E)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>&amp;Assign Selection</source>
        <translation>선택 항목 할당(&amp;A)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Clear Selection</source>
        <translation>선택 해제</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Find…</source>
        <translation>찾기(&amp;F)…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;View</source>
        <translation>보기(&amp;V)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Expand All Groups</source>
        <translation>모든 그룹 펼치기(&amp;E)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Collapse All Groups</source>
        <translation>모든 그룹 접기(&amp;C)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Language</source>
        <translation>언어(&amp;L)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>&amp;Run</source>
        <translation>실행(&amp;R)</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+53"/>
        <source>&amp;Baselines</source>
        <translation>베이스라인(&amp;B)</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>&amp;Help</source>
        <translation>도움말(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About graphplace</source>
        <translation>graphplace 정보(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>About graphplace</source>
        <translation>graphplace 정보</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;graphplace %1&lt;/b&gt;&lt;p&gt;Chooses where and when each op of a model&apos;s graph runs on a GPU cluster, and shows every result against the lower bound.&lt;/p&gt;</source>
        <translation>&lt;b&gt;graphplace %1&lt;/b&gt;&lt;p&gt;모델 그래프의 각 연산을 GPU 클러스터의 어느 장치에서 언제 실행할지 결정하고, 모든 결과를 하한과 비교하여 보여 줍니다.&lt;/p&gt;</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Main</source>
        <translation>기본 도구 모음</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Baselines</source>
        <translation>베이스라인</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Colour: device</source>
        <translation>색상: 장치</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour: fusion group</source>
        <translation>색상: 퓨전 그룹</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour: start time</source>
        <translation>색상: 시작 시간</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour: op cost</source>
        <translation>색상: 연산 비용</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour: prediction error</source>
        <translation>색상: 예측 오차</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The learned cost model&apos;s error per op&apos;s kernel, from Run ▸ Cost Model… (grey: not measured)</source>
        <translation>각 연산 커널에 대한 학습된 비용 모델의 오차, 실행 ▸ 비용 모델…에서 가져옴(회색: 측정 안 됨)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Colour: slack</source>
        <translation>색상: 여유 시간</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>How much later each op could finish without lengthening the step (View ▸ Critical Path)</source>
        <translation>스텝을 늘리지 않고 각 연산이 얼마나 늦게 끝나도 되는지 (보기 ▸ 임계 경로)</translation>
    </message>
    <message>
        <location line="+66"/>
        <source>Open Model</source>
        <translation>모델 열기</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Models (*.onnx *.pt *.pth *.torchscript *.dot *.gv *.json);;Placement files (*.json);;All files (*)</source>
        <translation>모델 (*.onnx *.pt *.pth *.torchscript *.dot *.gv *.json);;배치 파일 (*.json);;모든 파일 (*)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Placement files (*.json)</source>
        <translation>배치 파일 (*.json)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ONNX models (*.onnx)</source>
        <translation>ONNX 모델 (*.onnx)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Graphviz DOT (*.dot *.gv)</source>
        <translation>Graphviz DOT (*.dot *.gv)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chrome traces (*.json)</source>
        <translation>Chrome Trace 파일 (*.json)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>PNG images (*.png);;SVG drawings (*.svg)</source>
        <translation>PNG 이미지 (*.png);;SVG 벡터 그림 (*.svg)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>HTML pages (*.html)</source>
        <translation>HTML 페이지 (*.html)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export</source>
        <translation>내보내기</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>The language changes when graphplace starts again.</source>
        <translation>언어 변경은 graphplace를 다시 시작하면 적용됩니다.</translation>
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
        <translation>로컬 GPU 프로파일링(&amp;P)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Measure on &amp;GPUs</source>
        <translation>GPU에서 측정(&amp;G)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Load Calibration &amp;Table…</source>
        <translation>보정 테이블 불러오기(&amp;T)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Use measured op times (a calibration table) instead of the roofline estimate</source>
        <translation>루프라인 추정 대신 측정된 연산 시간(보정 테이블)을 사용</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>C&amp;lear Calibration Table</source>
        <translation>보정 테이블 지우기(&amp;L)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Estimate every op&apos;s time with the roofline model again</source>
        <translation>모든 연산 시간을 다시 루프라인 모델로 추정</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Cluster</source>
        <translation>클러스터(&amp;C)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Measure this machine&apos;s GPUs and make a cluster file with a calibration table</source>
        <translation>이 컴퓨터의 GPU를 측정하여 클러스터 파일과 보정 테이블을 만듭니다</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Run the current plan on the local GPUs and show the measured timeline below the simulated one (Shift+F5)</source>
        <translation>현재 배치를 로컬 GPU에서 실행하고 측정된 타임라인을 시뮬레이션 타임라인 아래에 표시 (Shift+F5)</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Measured on %1 %2 (%3)</source>
        <translation>%1에서 측정 %2 (%3)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>no per-kernel timeline with this timer</source>
        <translation>이 타이머로는 커널별 타임라인이 없음</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Simulated %1</source>
        <translation>시뮬레이션 %1</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>simulated %1, measured %2 on %3 (%4)</source>
        <translation>시뮬레이션 %1, %3에서 측정 %2 (%4)</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>calibrated by %1 (%n op time(s) from it)</source>
        <translation>
            <numerusform>%1(으)로 보정됨 (연산 시간 %n개)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Load Calibration Table</source>
        <translation>보정 테이블 불러오기</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Calibration tables (*.json);;All files (*)</source>
        <translation>보정 테이블 (*.json);;모든 파일 (*)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Calibration table %1 loaded</source>
        <translation>보정 테이블 %1 불러옴</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Now using the profiled cluster %1</source>
        <translation>이제 프로파일링한 클러스터 %1 사용 중</translation>
    </message>
    <message>
        <location line="-80"/>
        <source>The GPUs are being profiled: measure on them once the profile has finished.</source>
        <translation>GPU를 프로파일링하는 중입니다. 프로파일링이 끝난 뒤에 GPU에서 측정하세요.</translation>
    </message>
    <message>
        <location filename="../app/desktop/main_window_parallel.cpp" line="+12"/>
        <source>&amp;Parallel Plan…</source>
        <translation>병렬 계획(&amp;P)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Plan data, tensor and pipeline parallel training of the model on the cluster</source>
        <translation>클러스터에서 모델의 데이터·텐서·파이프라인 병렬 학습을 계획합니다</translation>
    </message>
    <message>
        <location filename="../app/desktop/main_window_costmodel.cpp" line="+13"/>
        <source>&amp;Cost Model…</source>
        <translation>비용 모델(&amp;C)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Time the model&apos;s kernels on this CPU and compare them with the learned cost model and the fitted roofline</source>
        <translation>이 CPU에서 모델의 커널 시간을 측정하고 학습된 비용 모델 및 적합된 루프라인과 비교합니다</translation>
    </message>
    <message>
        <location filename="../app/desktop/main_window_run.cpp" line="+29"/>
        <source>Open %1 first: the best plan places its ops</source>
        <translation>먼저 %1을(를) 여세요: 최적 계획은 그 모델의 연산을 배치합니다</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The run placed %1 (%2 ops); the open model is %3 (%4 ops)</source>
        <translation>실행이 배치한 모델은 %1(연산 %2개)이고, 열린 모델은 %3(연산 %4개)입니다</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>The run&apos;s plan uses more devices than the open cluster&apos;s %1</source>
        <translation>실행의 계획이 열린 클러스터의 장치 %1개보다 많은 장치를 사용합니다</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The run&apos;s best plan cannot be applied: %1</source>
        <translation>실행의 최적 계획을 적용할 수 없습니다: %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>best plan of the attached run</source>
        <translation>연결된 실행의 최적 계획</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Applied the run&apos;s best plan to %1</source>
        <translation>실행의 최적 계획을 %1에 적용했습니다</translation>
    </message>
    <message>
        <location filename="../app/desktop/main_window_explain.cpp" line="-166"/>
        <location line="+20"/>
        <source>Measure a plan to see the moves that would shorten its step.</source>
        <translation>계획을 측정하면 스텝을 줄일 수 있는 이동을 볼 수 있습니다.</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>Suggestions</source>
        <translation>제안</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Could not explain the step: %1</source>
        <translation>스텝을 설명할 수 없습니다: %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <location line="+70"/>
        <source>The plan changed: new suggestions follow its measurement</source>
        <translation>계획이 바뀌었습니다: 측정 후 새 제안이 나옵니다</translation>
    </message>
    <message>
        <location line="-65"/>
        <source>&amp;Critical Path</source>
        <translation>임계 경로(&amp;C)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Colour ops by slack and outline the chain of kernels and transfers that sets the step time, in the graph and the timeline</source>
        <translation>연산을 여유 시간으로 색칠하고, 스텝 시간을 결정하는 커널과 전송의 사슬을 그래프와 타임라인에 표시합니다</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Looking for moves…</source>
        <translation>이동을 찾는 중…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Looking for moves from the critical path…</source>
        <translation>임계 경로에서 이동을 찾는 중…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Critical path: %1 steps, compute %2 ms, transfers %3 ms; ops without slack are outlined</source>
        <translation>임계 경로: %1단계, 계산 %2 ms, 전송 %3 ms; 여유 시간이 없는 연산을 표시했습니다</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>None of the %1 moves tried from the critical path shortens the step.</source>
        <translation>임계 경로에서 시도한 %1개의 이동 중 스텝을 줄이는 것이 없습니다.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 of %2 moves tried from the critical path shorten the step (simulated):</source>
        <translation>임계 경로에서 시도한 %2개의 이동 중 %1개가 스텝을 줄입니다 (시뮬레이션):</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Suggestion: %1</source>
        <translation>제안: %1</translation>
    </message>
    <message numerus="yes">
        <location line="+13"/>
        <source>%1: %2 ms (%3), %Ln op(s) outlined</source>
        <translation>
            <numerusform>%1: %2 ms (%3), 연산 %Ln개 표시</numerusform>
        </translation>
    </message>
    <message>
        <location line="+11"/>
        <source>no change</source>
        <translation>변화 없음</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>does not fit</source>
        <translation>메모리 부족</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Critical path: the same time in every part.</source>
        <translation>임계 경로: 모든 부분의 시간이 같습니다.</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>compute on %1 %2</source>
        <translation>%1의 계산 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>transfers over %1 %2</source>
        <translation>%1을(를) 통한 전송 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting for %1 %2</source>
        <translation>%1 대기 %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>waiting for link %1 %2</source>
        <translation>링크 %1 대기 %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Critical path, #%1 against #%2: %3</source>
        <translation>임계 경로, #%1 대 #%2: %3</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1: the plan does not run: %2</source>
        <translation>%1: 계획을 실행할 수 없습니다: %2</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>after “%1”</source>
        <translation>“%1” 이후</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>as opened</source>
        <translation>열었을 때</translation>
    </message>
</context>
<context>
    <name>gp::MemoryBar</name>
    <message>
        <location filename="../widgets/panels/memory_bar.cpp" line="+98"/>
        <source>Peak memory %1 of %2: %3 over capacity</source>
        <translation>피크 메모리 %1 / %2: 용량 %3 초과</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Peak memory %1 of %2 (%3 %)</source>
        <translation>피크 메모리 %1 / %2(%3%)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Capacity %1; measure the plan to see its peak memory</source>
        <translation>용량 %1. 피크 메모리를 보려면 계획을 측정하세요</translation>
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
        <translation>서버 %1대 × GPU %2개</translation>
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
        <translation>모든 서버를 보려면 창을 키우세요</translation>
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
        <translation>%1: 계획에서 사용하지 않음</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: rank %2, stage %3, data-parallel replica %4, context rank %5, tensor-parallel shard %6</source>
        <translation>%1: 랭크 %2, 스테이지 %3, 데이터 병렬 복제본 %4, 컨텍스트 병렬 랭크 %5, 텐서 병렬 샤드 %6</translation>
    </message>
</context>
<context>
    <name>gp::MfuPlot</name>
    <message>
        <location filename="../widgets/parallel/mfu_plot.cpp" line="+19"/>
        <source>episode&apos;s plan</source>
        <translation>에피소드의 계획</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>best so far</source>
        <translation>지금까지 최고</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>episode</source>
        <translation>에피소드</translation>
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
        <translation>DQN이 시도한 각 계획의 모델 FLOPs 활용률(메모리에 맞지 않으면 0)과 지금까지의 최고값.
휠: 확대/축소 · 드래그: 이동 · 더블클릭: 맞춤</translation>
    </message>
</context>
<context>
    <name>gp::OpInspector</name>
    <message>
        <location filename="../widgets/panels/op_inspector.cpp" line="+68"/>
        <source>Type:</source>
        <translation>유형:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cost:</source>
        <translation>비용:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Device:</source>
        <translation>장치:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Priority:</source>
        <translation>우선순위:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fusion:</source>
        <translation>퓨전:</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Priority for the selected ops: on each device, the ready op with the highest priority runs first; equal priorities run in the order they became ready</source>
        <translation>선택한 연산의 우선순위: 각 장치에서 우선순위가 가장 높은 준비된 연산이 먼저 실행되며, 우선순위가 같으면 준비된 순서대로 실행됩니다</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Set priority</source>
        <translation>우선순위 설정</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Give the selected ops this priority (a plan without priorities first gives every op priority 0, which is the same FIFO order)</source>
        <translation>선택한 연산에 이 우선순위를 지정합니다(우선순위가 없는 계획은 먼저 모든 연산에 우선순위 0을 부여하며, 이는 FIFO 순서와 같습니다)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Fuse</source>
        <translation>퓨전</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Run the selected ops as one kernel (one device; at most one heavy op such as a MatMul)</source>
        <translation>선택한 연산을 하나의 커널로 실행(같은 장치, MatMul 같은 무거운 연산은 최대 하나)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unfuse</source>
        <translation>퓨전 해제</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Take the selected ops out of their fusion groups</source>
        <translation>선택한 연산을 퓨전 그룹에서 빼기</translation>
    </message>
    <message>
        <location line="+65"/>
        <source>unplaced</source>
        <translation>배치 안 됨</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Device %1</source>
        <translation>장치 %1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 %2FLOP</source>
        <translation>%1 %2FLOP</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>No model open</source>
        <translation>열린 모델 없음</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Select ops in the graph or the timeline</source>
        <translation>그래프나 타임라인에서 연산을 선택하십시오</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1 (estimated: a shape is unknown)</source>
        <translation>%1(추정값: 알 수 없는 형상이 있음)</translation>
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
            <numerusform>그룹 %1(연산 %n개)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not fused</source>
        <translation>퓨전 안 됨</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n ops selected</source>
        <translation>
            <numerusform>연산 %n개 선택됨</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+30"/>
        <source>%1 (%n estimated)</source>
        <translation>
            <numerusform>%1(추정값 %n개)</numerusform>
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
            <numerusform>#%1(연산 %n개)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>#%1 (%2 of %n op(s))</source>
        <translation>
            <numerusform>#%1(연산 %n개 중 %2개)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <source>none fused</source>
        <translation>퓨전된 연산 없음</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%n group(s): %1</source>
        <translation>
            <numerusform>그룹 %n개: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n not fused</source>
        <translation>
            <numerusform>%n개 퓨전 안 됨</numerusform>
        </translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+20"/>
        <source>FIFO order</source>
        <translation>FIFO 순서</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>priority %1</source>
        <translation>우선순위 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+22"/>
        <source>priorities %1–%2</source>
        <translation>우선순위 %1–%2</translation>
    </message>
    <message>
        <location line="-20"/>
        <source>no fusion group</source>
        <translation>퓨전 그룹 없음</translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <location line="+29"/>
        <source>%n fusion group(s)</source>
        <translation>
            <numerusform>퓨전 그룹 %n개</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-28"/>
        <source>%n ops</source>
        <translation>
            <numerusform>연산 %n개</numerusform>
        </translation>
    </message>
    <message>
        <location line="+18"/>
        <source>priority %1 for all</source>
        <translation>모두 우선순위 %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>no fusion</source>
        <translation>퓨전 없음</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>(%n op(s))</source>
        <translation>
            <numerusform>(연산 %n개)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan: %1 · %2</source>
        <translation>계획: %1 · %2</translation>
    </message>
</context>
<context>
    <name>gp::OpTypeChart</name>
    <message>
        <location filename="../widgets/op_type_chart.cpp" line="+17"/>
        <location line="+37"/>
        <source>ops</source>
        <translation>연산 수</translation>
    </message>
    <message>
        <location line="-12"/>
        <source>other</source>
        <translation>기타</translation>
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
        <translation>배치</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Scheduling</source>
        <translation>스케줄링</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fusion</source>
        <translation>퓨전</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>ColocRL (2017 seq2seq, REINFORCE)</source>
        <translation>ColocRL (2017년 seq2seq, REINFORCE)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Policy file…</source>
        <translation>정책 파일…</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>0 (zero-shot)</source>
        <translation>0 (제로샷)</translation>
    </message>
    <message>
        <location line="-18"/>
        <source>Search, no learning (default)</source>
        <translation>탐색, 학습 없음 (기본값)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pre-trained policy, fine-tuned</source>
        <translation>사전 학습된 정책, 미세 조정</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New policy, learning (from scratch)</source>
        <translation>새 정책, 탐색하며 학습 (처음부터)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The policy network whose samples the search starts from, and whether it learns as it searches. On model families it never saw, learning did not beat the search alone in the same time (docs/performance.md, &quot;Learning&quot;).</source>
        <translation>탐색이 샘플에서 시작하는 정책 네트워크와, 탐색하면서 학습하는지 여부. 본 적 없는 모델 계열에서 학습은 같은 시간 동안 탐색만 한 것보다 낫지 않았습니다 (docs/performance.md, &quot;Learning&quot;).</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Search iterations (with a learning policy, each ends in an update); 0 places with the start plan and the policy as it is</source>
        <translation>탐색 반복 횟수 (학습하는 정책이면 매 반복이 업데이트로 끝남); 0은 시작 계획과 현재 정책으로 바로 배치</translation>
    </message>
    <message>
        <location line="+5"/>
        <source> s</source>
        <translation>초</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no limit</source>
        <translation>제한 없음</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop after this many seconds even if iterations remain</source>
        <translation>반복이 남아 있어도 이 시간(초)이 지나면 중지합니다</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The same seed gives the same plan</source>
        <translation>같은 시드는 같은 계획을 냅니다</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimize:</source>
        <translation>최적화:</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Policy:</source>
        <translation>정책:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Iterations:</source>
        <translation>반복 횟수:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Time budget:</source>
        <translation>시간 예산:</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Seed:</source>
        <translation>시드:</translation>
    </message>
    <message>
        <location line="+46"/>
        <source>Choose a device for every op</source>
        <translation>모든 연산의 장치를 선택</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose a priority for every op: which ready op each device runs first</source>
        <translation>모든 연산의 우선순위를 선택: 각 장치가 어떤 준비된 연산을 먼저 실행할지</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Choose which ops of a device run as one kernel</source>
        <translation>한 장치의 어떤 연산을 하나의 커널로 실행할지 선택</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>At least one task stays selected: tick another one first</source>
        <translation>작업은 하나 이상 선택되어야 합니다: 먼저 다른 작업을 선택하십시오</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>devices (as in the plan)</source>
        <translation>장치(계획대로)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>order (the plan&apos;s priorities)</source>
        <translation>순서(계획의 우선순위)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>order (FIFO)</source>
        <translation>순서(FIFO)</translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>fusion (the plan&apos;s %n group(s))</source>
        <translation>
            <numerusform>퓨전(계획의 그룹 %n개)</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fusion (default: elementwise chains)</source>
        <translation>퓨전(기본: 요소별 연산 체인)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fusion (none)</source>
        <translation>퓨전(없음)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>All three are decided jointly.</source>
        <translation>세 가지를 함께 결정합니다.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not optimized: %1</source>
        <translation>최적화하지 않음: %1</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Choose a Policy</source>
        <translation>정책 선택</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Policy checkpoints (*.pt);;All files (*)</source>
        <translation>정책 체크포인트 (*.pt);;모든 파일 (*)</translation>
    </message>
</context>
<context>
    <name>gp::ParallelControls</name>
    <message>
        <location filename="../widgets/parallel/parallel_controls.cpp" line="+46"/>
        <source>Samples per training step, over all data-parallel replicas</source>
        <translation>학습 스텝당 샘플 수(모든 데이터 병렬 복제본 합계)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Global batch</source>
        <translation>전역 배치</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Data-parallel replicas</source>
        <translation>데이터 병렬 복제본 수</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Tensor-parallel degree: each layer&apos;s matrices split over this many GPUs</source>
        <translation>텐서 병렬 차수: 각 레이어의 행렬을 이 수만큼의 GPU에 나눕니다</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Pipeline stages</source>
        <translation>파이프라인 스테이지 수</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Context-parallel ranks: each sample&apos;s sequence split over them (ring attention)</source>
        <translation>컨텍스트 병렬 랭크 수: 각 샘플의 시퀀스를 이들에 나눔 (링 어텐션)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Mesh</source>
        <translation>메시</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Model chunks per pipeline stage (interleaved 1F1B): the bubble shrinks by this factor, the stages send this many times more often; micro-batches must be a multiple of pp</source>
        <translation>파이프라인 스테이지당 모델 청크 수 (인터리브 1F1B): 버블이 이 배수만큼 줄고 스테이지 간 전송은 이 배수만큼 잦아짐; 마이크로배치 수는 pp의 배수여야 함</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Virtual stages</source>
        <translation>가상 스테이지</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Micro-batches per replica and step × samples in each</source>
        <translation>복제본·스텝당 마이크로배치 수 × 각 마이크로배치의 샘플 수</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Micro-batches</source>
        <translation>마이크로배치</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>1F1B: one forward, one backward in turn (fewer activations in flight); GPipe: all forwards first</source>
        <translation>1F1B: 순전파와 역전파를 번갈아 실행(진행 중인 활성값이 적음); GPipe: 모든 순전파를 먼저 실행</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Schedule</source>
        <translation>스케줄</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>0: none</source>
        <translation>0: 없음</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>1: optimizer state sharded</source>
        <translation>1: 옵티마이저 상태 분할</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>2: + gradients</source>
        <translation>2: + 그래디언트</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>3: + parameters</source>
        <translation>3: + 매개변수</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ZeRO stage: what is split over the data-parallel replicas instead of replicated</source>
        <translation>ZeRO 단계: 복제하지 않고 데이터 병렬 복제본에 나누어 두는 것</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ZeRO</source>
        <translation>ZeRO</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>ZeRO&apos;s sharding group (HSDP, hybrid ZeRO): the state ZeRO splits is split over groups of this many data-parallel replicas and replicated across the groups</source>
        <translation>ZeRO의 샤딩 그룹(HSDP, 하이브리드 ZeRO): ZeRO가 나누는 상태를 이만큼의 데이터 병렬 복제본 그룹 안에서 나누고 그룹 간에는 복제합니다</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Sharded over</source>
        <translation>샤딩 범위</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>The software that trains the plan: what it keeps per parameter, how it computes the loss, how much of the TP communication it hides, and which plans it can run</source>
        <translation>계획을 학습시키는 소프트웨어: 파라미터마다 무엇을 보관하는지, 손실을 어떻게 계산하는지, 텐서 병렬 통신을 얼마나 숨기는지, 어떤 계획을 실행할 수 있는지</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Framework</source>
        <translation>프레임워크</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Fused (FlashAttention)</source>
        <translation>융합 (FlashAttention)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Fused (FlashAttention-2)</source>
        <translation>융합 (FlashAttention-2)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unfused</source>
        <translation>비융합</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Attention</source>
        <translation>어텐션</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sequence parallel</source>
        <translation>시퀀스 병렬</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>With tp &gt; 1: norms, residual adds and the activations kept for backward are split over the tensor-parallel GPUs along the sequence</source>
        <translation>tp &gt; 1일 때: 정규화, 잔차 덧셈, 역전파용으로 보관하는 활성값을 시퀀스 방향으로 텐서 병렬 GPU에 나눔</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>TP overlap</source>
        <translation>TP 중첩</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>With sequence parallelism: each tensor-parallel all-gather and reduce-scatter runs in chunks beside the product next to it (Megatron-LM&apos;s --tp-comm-overlap); over NVLink only</source>
        <translation>시퀀스 병렬과 함께: 텐서 병렬 all-gather와 reduce-scatter를 청크로 나누어 옆의 행렬 곱과 동시에 실행합니다(Megatron-LM의 --tp-comm-overlap). NVLink에서만</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>FP8 GEMMs</source>
        <translation>FP8 GEMM</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The layers&apos; weight products in FP8 (Transformer Engine&apos;s recipe: inputs cast each pass, an FP8 copy of each weight); needs GPUs with an FP8 rate (Hopper and later)</source>
        <translation>각 레이어의 가중치 곱을 FP8로 실행 (Transformer Engine 방식: 매 패스마다 입력을 변환하고 가중치마다 FP8 사본 유지); FP8 연산을 지원하는 GPU 필요 (Hopper 이후)</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Stage</source>
        <translation>스테이지</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>First layer</source>
        <translation>첫 레이어</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Layers</source>
        <translation>레이어 수</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Recomputation</source>
        <translation>재계산</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Where each pipeline stage starts (or drag the boundaries in the layer stack), and what it recomputes in backward instead of keeping: nothing, the attention cores (selective) or everything (full)</source>
        <translation>각 파이프라인 스테이지의 시작 위치(또는 레이어 스택에서 경계를 드래그)와 역전파에서 보관 대신 재계산하는 것: 없음, 어텐션 코어(선택적) 또는 전부(전체)</translation>
    </message>
    <message>
        <location line="+48"/>
        <source>Sharded over %1</source>
        <translation>샤딩 범위 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Framework %1</source>
        <translation>프레임워크 %1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>TP overlap on</source>
        <translation>TP 중첩 켜기</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>TP overlap off</source>
        <translation>TP 중첩 끄기</translation>
    </message>
    <message>
        <location line="+95"/>
        <source>all %1 replicas</source>
        <translation>복제본 %1개 전체</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>groups of %1</source>
        <translation>%1개씩 그룹</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Chunk %1 starts at layer %2</source>
        <translation>청크 %1이(가) 레이어 %2에서 시작</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Chunk %1: %2 recomputation</source>
        <translation>청크 %1: %2 재계산</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Stage %1: %2 recomputation</source>
        <translation>스테이지 %1: %2 재계산</translation>
    </message>
    <message>
        <location line="-203"/>
        <source>Global batch %1</source>
        <translation>전역 배치 %1</translation>
    </message>
    <message>
        <location line="-47"/>
        <source>Fused: each attention runs as one kernel that never stores its probabilities, the GPU&apos;s fastest (cuDNN or FlashAttention-3 on Hopper) or FlashAttention-2 (PyTorch&apos;s scaled_dot_product_attention on Hopper up to 2.6); unfused: as the graph&apos;s separate operations</source>
        <translation>융합: 각 어텐션이 확률을 저장하지 않는 하나의 커널로 실행되며, GPU에서 가장 빠른 커널(Hopper에서는 cuDNN 또는 FlashAttention-3) 또는 FlashAttention-2(PyTorch 2.6까지 Hopper에서의 scaled_dot_product_attention)를 사용합니다. 비융합: 그래프의 개별 연산으로 실행</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>Virtual stages %1</source>
        <translation>가상 스테이지 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Micro-batches %1</source>
        <translation>마이크로배치 %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Schedule %1</source>
        <translation>스케줄 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>ZeRO-%1</source>
        <translation>ZeRO-%1</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Attention %1</source>
        <translation>어텐션 %1</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Sequence parallelism on</source>
        <translation>시퀀스 병렬 켬</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Sequence parallelism off</source>
        <translation>시퀀스 병렬 끔</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>FP8 GEMMs on</source>
        <translation>FP8 GEMM 켬</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>FP8 GEMMs off</source>
        <translation>FP8 GEMM 끔</translation>
    </message>
    <message>
        <location line="+80"/>
        <source>%1 × %2 samples</source>
        <translation>%1 × 샘플 %2개</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 · chunk %2</source>
        <translation>%1 · 청크 %2</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Stage %1 starts at layer %2</source>
        <translation>스테이지 %1이(가) 레이어 %2에서 시작</translation>
    </message>
</context>
<context>
    <name>gp::ParallelFormat</name>
    <message>
        <location filename="../widgets/parallel/parallel_format.cpp" line="+62"/>
        <source>%1 (%2 virtual)</source>
        <translation>%1 (가상 %2)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 × cp %2</source>
        <translation>%1 × cp %2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>dp %1 × tp %2 × pp %3 · %4 × %5 samples · %6 · ZeRO-%7</source>
        <translation>dp %1 × tp %2 × pp %3 · %4 × 샘플 %5개 · %6 · ZeRO-%7</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Generic (PyTorch)</source>
        <translation>일반(PyTorch)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Selective</source>
        <translation>선택적</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Full</source>
        <translation>전체</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>None</source>
        <translation>없음</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>Where the step goes (stage %1 finishes last): compute %2 % · recomputation %3 % · collectives in the passes %4 % · bubble and transfers %5 % · gradient sync %6 % · optimizer %7 %</source>
        <translation>스텝 시간의 구성 (스테이지 %1이 마지막에 끝남): 계산 %2 % · 재계산 %3 % · 패스 내 집합 통신 %4 % · 버블과 전송 %5 % · 그래디언트 동기화 %6 % · 옵티마이저 %7 %</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Collectives in the passes, by kind: tensor parallel %1 % · context parallel (ring attention) %2 % · expert all-to-alls %3 % · ZeRO-3 gathers %4 %</source>
        <translation>패스 안의 집합 통신(종류별): 텐서 병렬 %1 % · 컨텍스트 병렬(링 어텐션) %2 % · 전문가 all-to-all %3 % · ZeRO-3 수집 %4 %</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Memory: fits with %1 to spare on the fullest GPU (the peak ±%2)</source>
        <translation>메모리: 들어감 — 가장 많이 쓰는 GPU에 %1 여유 (최대치 ±%2)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Memory: out-of-memory risk — %1 to spare of %2 on the fullest GPU, within the ±%3 the peak may be off</source>
        <translation>메모리: 메모리 부족 위험 — 가장 많이 쓰는 GPU가 %2 중 %1 여유로, 최대치의 오차 ±%3 이내</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Memory: out-of-memory risk — %1 over %2 on the fullest GPU, within the ±%3 the peak may be off</source>
        <translation>메모리: 메모리 부족 위험 — 가장 많이 쓰는 GPU가 %2를 %1 초과하나, 최대치의 오차 ±%3 이내</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Memory: does not fit — %1 over %2 on the fullest GPU (the peak ±%3)</source>
        <translation>메모리: 들어가지 않음 — 가장 많이 쓰는 GPU가 %2를 %1 초과 (최대치 ±%3)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>%1 samples/s · step %2 ms (±%6 %) · MFU %3 % · bubble %4 % · communication %5 %</source>
        <translation>%1 샘플/초 · 스텝 %2 ms (±%6 %) · MFU %3 % · 버블 %4 % · 통신 %5 %</translation>
    </message>
</context>
<context>
    <name>gp::ParallelHistoryModel</name>
    <message>
        <location filename="../widgets/parallel/parallel_history_model.cpp" line="+47"/>
        <source>does not fit</source>
        <translation>맞지 않음</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>%1
Global batch %2, layers per stage %3</source>
        <translation>%1
전역 배치 %2, 스테이지별 레이어 %3</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Plan</source>
        <translation>계획</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Shape</source>
        <translation>형태</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Samples/s</source>
        <translation>샘플/초</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Step ms</source>
        <translation>스텝 ms</translation>
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
        <translation>데이터 병렬</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Published recipe</source>
        <translation>공개된 레시피</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exact</source>
        <translation>정확 탐색</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>DQN</source>
        <translation>DQN</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Random</source>
        <translation>무작위</translation>
    </message>
    <message>
        <location line="+67"/>
        <source>Start</source>
        <translation>시작</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>the model is still loading</source>
        <translation>모델을 아직 불러오는 중입니다</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no model is loaded</source>
        <translation>불러온 모델이 없습니다</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>a plan search is running: stop it first</source>
        <translation>계획 탐색이 실행 중입니다: 먼저 중지하세요</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Restore %1</source>
        <translation>%1 복원</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Reset</source>
        <translation>초기화</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>the exact search stopped: the plan was changed by hand</source>
        <translation>정확 탐색 중지: 계획을 직접 변경함</translation>
    </message>
    <message>
        <location filename="../app/desktop/parallel_session_search.cpp" line="+62"/>
        <source>%1 failed: %2</source>
        <translation>%1 실패: %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 found no plan: %2</source>
        <translation>%1이(가) 계획을 찾지 못했습니다: %2</translation>
    </message>
</context>
<context>
    <name>gp::ParallelWindow</name>
    <message>
        <location filename="../app/desktop/parallel_window.cpp" line="+62"/>
        <source>Parallel Plan</source>
        <translation>병렬 계획</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>No parallel plan for this model: %1</source>
        <translation>이 모델에는 병렬 계획이 없습니다: %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Parallel plans split a model made of repeated layers, such as zoo:bert_base or zoo:gpt_13b (File ▸ Examples).</source>
        <translation>병렬 계획은 zoo:bert_base나 zoo:gpt_13b처럼 반복 레이어로 된 모델을 나눕니다(파일 ▸ 예제).</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 is searching…</source>
        <translation>%1 탐색 중…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>DQN: episode %1, best MFU %2 %</source>
        <translation>DQN: 에피소드 %1, 최고 MFU %2 %</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Megatron</source>
        <translation>Megatron</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Megatron-LM&apos;s rule: the smallest tensor × pipeline size that fits, data parallelism over the rest</source>
        <translation>Megatron-LM의 규칙: 메모리에 맞는 가장 작은 텐서 × 파이프라인 크기, 나머지는 데이터 병렬</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Data parallel</source>
        <translation>데이터 병렬</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The fastest plan with data parallelism alone (ZeRO 0–3, micro-batches, recomputation)</source>
        <translation>데이터 병렬만 쓰는 가장 빠른 계획(ZeRO 0–3, 마이크로배치, 재계산)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Published recipe</source>
        <translation>공개된 레시피</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The published plan closest in shape (parameters, GPUs, sequence), carried over to this model and cluster: the plan most practitioners would pick</source>
        <translation>형태(파라미터 수, GPU 수, 시퀀스 길이)가 가장 가까운 공개 계획을 이 모델과 클러스터에 옮긴 것: 대부분의 실무자가 고를 계획</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Exact</source>
        <translation>정확 탐색</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Every plan shape, stage boundaries by dynamic programming, pruned by a lower bound</source>
        <translation>모든 계획 형태, 동적 계획법으로 스테이지 경계, 하한으로 가지치기</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimize</source>
        <translation>최적화</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search with the DQN in the background; its MFU per episode is plotted as it runs</source>
        <translation>백그라운드에서 DQN으로 탐색하며 에피소드별 MFU를 실시간으로 그립니다</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stop</source>
        <translation>중지</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Stop the search; the best plan found so far is applied</source>
        <translation>탐색을 중지하고 지금까지 찾은 최고의 계획을 적용합니다</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Reset</source>
        <translation>초기화</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Back to the first plan shown (undoable)</source>
        <translation>처음 표시된 계획으로 돌아갑니다(실행 취소 가능)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Export Plan…</source>
        <translation>계획 내보내기…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write the plan file (graphplace-cli parallelize --plan reads it)</source>
        <translation>계획 파일을 씁니다(graphplace-cli parallelize --plan이 읽음)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export Trace…</source>
        <translation>트레이스 내보내기…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write the simulated step as a Chrome trace (Perfetto)</source>
        <translation>시뮬레이션한 스텝을 Chrome 트레이스로 씁니다(Perfetto)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Export Launch Configuration…</source>
        <translation>실행 구성 내보내기…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write the plan as Megatron-LM arguments, NeMo overrides, a torchtitan or DeepSpeed configuration; what the framework cannot express is named</source>
        <translation>계획을 Megatron-LM 인수, NeMo 재정의, torchtitan 또는 DeepSpeed 구성으로 저장합니다. 프레임워크가 표현할 수 없는 부분은 명시됩니다</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Import Launch Configuration…</source>
        <translation>실행 구성 가져오기…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read Megatron-LM arguments, NeMo recipe overrides, a torchtitan or DeepSpeed configuration as the plan, explain it and set the best plan found beside it</source>
        <translation>Megatron-LM 인수, NeMo 레시피 재정의, torchtitan 또는 DeepSpeed 구성을 계획으로 읽고 설명한 뒤 찾은 최적 계획과 나란히 비교합니다</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Op Graph</source>
        <translation>연산 그래프</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The model&apos;s ops and their placement on the devices, in the main window</source>
        <translation>모델의 연산과 장치 배치를 메인 창에서 보기</translation>
    </message>
    <message>
        <location line="+19"/>
        <location line="+42"/>
        <source>Plan</source>
        <translation>계획</translation>
    </message>
    <message>
        <location line="-32"/>
        <source> s</source>
        <translation> 초</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>How long the DQN searches</source>
        <translation>DQN이 탐색할 시간</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>&amp;Plan</source>
        <translation>계획(&amp;P)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;Close</source>
        <translation>닫기(&amp;C)</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Every plan produced; click one to show it again (undoable)</source>
        <translation>만들어진 모든 계획; 클릭하면 다시 표시합니다(실행 취소 가능)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>History</source>
        <translation>기록</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Optimizer (DQN)</source>
        <translation>최적화기(DQN)</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Pipeline (one training step)</source>
        <translation>파이프라인(학습 한 스텝)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Mesh on the cluster (outlined: tensor-parallel groups)</source>
        <translation>클러스터 위의 메시(테두리: 텐서 병렬 그룹)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Peak memory per device</source>
        <translation>장치별 최대 메모리</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Stage %1 starts at layer %2</source>
        <translation>스테이지 %1이(가) 레이어 %2에서 시작</translation>
    </message>
    <message>
        <location line="+21"/>
        <location line="+11"/>
        <source>Parallel Plan — %1 on %2</source>
        <translation>병렬 계획 — %2의 %1</translation>
    </message>
    <message>
        <location line="-9"/>
        <location line="+11"/>
        <source>Loading %1 as a stack of layers…</source>
        <translation>%1을(를) 레이어 스택으로 불러오는 중…</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>%1 on %2: %3 layers, hidden %4, %5 heads, %6 G parameters, %7 · %8 devices</source>
        <translation>%2의 %1: 레이어 %3개, 은닉 크기 %4, 헤드 %5개, 매개변수 %6 G개, %7 · 장치 %8개</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>mixed precision</source>
        <translation>혼합 정밀도</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>fp32</source>
        <translation>fp32</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Does not fit: %1</source>
        <translation>맞지 않음: %1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Layers per stage: %1</source>
        <translation>스테이지별 레이어: %1</translation>
    </message>
    <message>
        <location line="+61"/>
        <source>No plan found that fits beside your plan (%1)</source>
        <translation>사용자 계획(%1) 외에 메모리에 맞는 계획을 찾지 못했습니다</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Your plan (%1) is the best found: %2 ms per step</source>
        <translation>사용자 계획(%1)이 찾은 최적 계획입니다: 스텝당 %2 ms</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Your plan (%1) does not fit; the best plan found runs %2 ms per step.
What changed: %3.</source>
        <translation>사용자 계획(%1)은 메모리에 맞지 않습니다. 찾은 최적 계획은 스텝당 %2 ms입니다.
바뀐 점: %3.</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Beside your plan (%1): %2× faster, %3 against %4 ms per step.
What changed: %5.
Where the time moved: %6.</source>
        <translation>사용자 계획(%1) 대비: %2배 빠름, 스텝당 %3 대 %4 ms.
바뀐 점: %5.
시간이 옮겨 간 곳: %6.</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Yours (%1): %2 samples/s, %3 % MFU, %4 GiB peak</source>
        <translation>사용자 계획(%1): %2 샘플/초, MFU %3 %, 최대 %4 GiB</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Yours (%1) does not run: %2</source>
        <translation>사용자 계획(%1)은 실행되지 않습니다: %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>; read approximately: %1</source>
        <translation>; 근사로 읽음: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>; searching for the best plan…</source>
        <translation>; 최적 계획을 찾는 중…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Import Launch Configuration</source>
        <translation>실행 구성 가져오기</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Launch configurations (*.sh *.txt *.toml *.py *.json *.yaml *.yml);;All files (*)</source>
        <translation>실행 구성 (*.sh *.txt *.toml *.py *.json *.yaml *.yml);;모든 파일 (*)</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Stage %1: rank %2 on %3</source>
        <translation>스테이지 %1: 랭크 %2, %3에서 실행</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stage %1: %2 ranks (dp %3 × cp %4 × tp %5), ranks %6–%7 on %8 … %9; the row is every one of them: they run the same passes</source>
        <translation>스테이지 %1: 랭크 %2개 (dp %3 × cp %4 × tp %5), 랭크 %6–%7, %8 … %9에서 실행; 이 행은 그 모두를 나타냄: 같은 패스를 실행함</translation>
    </message>
    <message>
        <location line="+26"/>
        <location line="+6"/>
        <location line="+7"/>
        <source>Wrote %1</source>
        <translation>%1에 썼습니다</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>; not exactly expressible in %1: %2</source>
        <translation>; %1에서 정확히 표현할 수 없음: %2</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Export Launch Configuration</source>
        <translation>실행 구성 내보내기</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Export Trace</source>
        <translation>트레이스 내보내기</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Export Plan</source>
        <translation>계획 내보내기</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Chrome traces (*.json)</source>
        <translation>Chrome 트레이스 (*.json)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Parallel plan files (*.json)</source>
        <translation>병렬 계획 파일 (*.json)</translation>
    </message>
</context>
<context>
    <name>gp::PipelineView</name>
    <message>
        <location filename="../widgets/parallel/pipeline_view.cpp" line="+85"/>
        <location line="+73"/>
        <source>Stage %1</source>
        <translation>스테이지 %1</translation>
    </message>
    <message>
        <location line="-33"/>
        <source>No simulated step to show</source>
        <translation>표시할 시뮬레이션 스텝이 없습니다</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>forward</source>
        <translation>순전파</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>backward</source>
        <translation>역전파</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>activations sent</source>
        <translation>보낸 활성값</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>gradients sent back</source>
        <translation>되돌려 보낸 그래디언트</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>gradient sync</source>
        <translation>그래디언트 동기화</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>optimizer step</source>
        <translation>옵티마이저 스텝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ZeRO gather</source>
        <translation>ZeRO 수집</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bubble</source>
        <translation>버블</translation>
    </message>
    <message>
        <location line="+53"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="+76"/>
        <source>Forward pass of micro-batch %1</source>
        <translation>마이크로배치 %1의 순전파</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Backward pass of micro-batch %1</source>
        <translation>마이크로배치 %1의 역전파</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Gradients of micro-batch %1 to stage %2</source>
        <translation>마이크로배치 %1의 그래디언트를 스테이지 %2(으)로</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Activations of micro-batch %1 to stage %2</source>
        <translation>마이크로배치 %1의 활성값을 스테이지 %2(으)로</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Gradient synchronisation, bucket %1</source>
        <translation>그래디언트 동기화, 버킷 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Optimizer step</source>
        <translation>옵티마이저 스텝</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ZeRO weight all-gather</source>
        <translation>ZeRO 가중치 all-gather</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stage %1: %2
%3 – %4 ms</source>
        <translation>스테이지 %1: %2
%3 – %4 ms</translation>
    </message>
</context>
<context>
    <name>gp::PlanKnob</name>
    <message>
        <location filename="../widgets/parallel/parallel_format.cpp" line="-141"/>
        <source>parameter gather overlapped</source>
        <translation>파라미터 수집 중첩</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>experts over dp</source>
        <translation>데이터 병렬에 분산된 전문가</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unfused attention</source>
        <translation>비융합 어텐션</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FlashAttention-2</source>
        <translation>FlashAttention-2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>FP8 GEMMs</source>
        <translation>FP8 행렬 곱</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>sequence parallel</source>
        <translation>시퀀스 병렬</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TP communication overlapped</source>
        <translation>텐서 병렬 통신 중첩</translation>
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
        <translation>CPU의 옵티마이저</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>bf16 Adam moments</source>
        <translation>bf16 Adam 모멘트</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>8-bit Adam moments</source>
        <translation>8비트 Adam 모멘트</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>checkpoints on the CPU</source>
        <translation>체크포인트를 CPU에</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>fp32 gradient accumulation</source>
        <translation>fp32 그래디언트 누적</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>16-bit gradient accumulation</source>
        <translation>16비트 그래디언트 누적</translation>
    </message>
</context>
<context>
    <name>gp::ProfileDialog</name>
    <message>
        <location filename="../app/desktop/profile_dialog.cpp" line="+51"/>
        <source>Profile Local GPUs</source>
        <translation>로컬 GPU 프로파일링</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Measures this machine&apos;s GPUs (matrix products, convolutions, memory bandwidth, launch overhead, transfers between each pair) and makes a cluster file with a calibration table from them. The GPUs should be otherwise idle.</source>
        <translation>이 컴퓨터의 GPU(행렬 곱, 합성곱, 메모리 대역폭, 실행 오버헤드, 각 GPU 쌍 사이의 전송)를 측정하여 클러스터 파일과 보정 테이블을 만듭니다. 측정하는 동안 GPU는 다른 작업 없이 유휴 상태여야 합니다.</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Quick (fewer sizes and repetitions, about 10 s per GPU)</source>
        <translation>빠르게(&amp;Q) (크기와 반복 횟수를 줄여 GPU당 약 10초)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Progress appears here, one line per step.</source>
        <translation>진행 상황이 여기에 단계마다 한 줄씩 표시됩니다.</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>&amp;Start</source>
        <translation>시작(&amp;S)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Cancel</source>
        <translation>취소(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Save Cluster…</source>
        <translation>클러스터 저장(&amp;S)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Write the cluster file and its calibration table next to it, and use them</source>
        <translation>클러스터 파일과 그 옆에 보정 테이블을 쓰고 사용합니다</translation>
    </message>
    <message>
        <location line="+70"/>
        <source>Profiling…</source>
        <translation>프로파일링 중…</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Done in %1 s. Save the cluster to use it.</source>
        <translation>%1초 만에 완료했습니다. 사용하려면 클러스터를 저장하세요.</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Cancelled.</source>
        <translation>취소됨.</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>The profile failed.</source>
        <translation>프로파일링에 실패했습니다.</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Cancelling…</source>
        <translation>취소하는 중…</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Save Cluster</source>
        <translation>클러스터 저장</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Cluster files (*.json)</source>
        <translation>클러스터 파일 (*.json)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Nothing to save: run the profile first.</source>
        <translation>저장할 내용이 없습니다. 먼저 프로파일링을 실행하세요.</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Saved %1.</source>
        <translation>%1 저장됨.</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Saved %1 and %2.</source>
        <translation>%1 및 %2 저장됨.</translation>
    </message>
</context>
<context>
    <name>gp::RewardPlot</name>
    <message>
        <location filename="../widgets/reward/reward_plot.cpp" line="+36"/>
        <location line="+205"/>
        <source>mean reward</source>
        <translation>평균 보상</translation>
    </message>
    <message>
        <location line="-201"/>
        <location line="+200"/>
        <source>best of the iteration</source>
        <translation>이번 반복의 최고</translation>
    </message>
    <message>
        <location line="-196"/>
        <location line="+190"/>
        <source>best so far</source>
        <translation>지금까지의 최고</translation>
    </message>
    <message>
        <location line="-185"/>
        <source>zero-shot plan</source>
        <translation>제로샷 계획</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>polishing</source>
        <translation>다듬기</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+152"/>
        <source>iteration</source>
        <translation>반복</translation>
    </message>
    <message>
        <location line="-151"/>
        <source>reward</source>
        <translation>보상</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reward of a plan: −√(step time ÷ lower bound). The lower bound is −1; higher is better.
Wheel: zoom · drag: pan · double-click: fit</source>
        <translation>계획의 보상: −√(스텝 시간 ÷ 하한). 하한은 −1이며 높을수록 좋습니다.
휠: 확대/축소 · 드래그: 이동 · 더블클릭: 맞춤</translation>
    </message>
    <message>
        <location line="+103"/>
        <source>zero-shot: %1 ms</source>
        <translation>제로샷: %1 ms</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>lower bound: %1 ms</source>
        <translation>하한: %1 ms</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>best baseline %1: %2 ms</source>
        <translation>최적 기준 방법 %1: %2 ms</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>best so far: %1 ms</source>
        <translation>지금까지의 최고: %1 ms</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>round</source>
        <translation>라운드</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>best task of the round</source>
        <translation>라운드 최고 작업</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mean over the round&apos;s tasks</source>
        <translation>라운드 작업 평균</translation>
    </message>
</context>
<context>
    <name>gp::RunWindow</name>
    <message>
        <location filename="../app/desktop/run_window.cpp" line="+24"/>
        <source>infeasible</source>
        <translation>불가능</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Apply Best Plan</source>
        <translation>최적 계획 적용</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Place the open model&apos;s ops as the run&apos;s best plan does (the run&apos;s model and cluster must be open)</source>
        <translation>열린 모델의 연산을 실행의 최적 계획대로 배치합니다(실행의 모델과 클러스터가 열려 있어야 함)</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Run — %1</source>
        <translation>실행 — %1</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>optimize %1 on %2 (%3 ops)</source>
        <translation>%2에서 %1 최적화(연산 %3개)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>pretrain over %1 tasks</source>
        <translation>작업 %1개로 사전 학습</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>a run</source>
        <translation>실행</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · %1 ranks</source>
        <translation> · rank %1개</translation>
    </message>
    <message>
        <location line="+1"/>
        <source> · seed %1</source>
        <translation> · 시드 %1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>rank %1 worked %2 s, waited %3 s</source>
        <translation>rank %1 작업 %2초, 대기 %3초</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Round %1: %2</source>
        <translation>라운드 %1: %2</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Task</source>
        <translation>작업</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Rank</source>
        <translation>Rank</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Round</source>
        <translation>라운드</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Start ms</source>
        <translation>시작 ms</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Best ms</source>
        <translation>최적 ms</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Gain</source>
        <translation>개선</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Own plan ms</source>
        <translation>자체 계획 ms</translation>
    </message>
    <message>
        <location line="+7"/>
        <source> (held out)</source>
        <translation> (보류)</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Device</source>
        <translation>장치</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Ops in the best plan</source>
        <translation>최적 계획의 연산 수</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>; best plan %1 ms (iteration %2)</source>
        <translation>; 최적 계획 %1 ms(반복 %2)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The run failed: %1</source>
        <translation>실행 실패: %1</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Stopped after %1 s</source>
        <translation>%1초 후 중지됨</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Finished in %1 s</source>
        <translation>%1초 만에 완료</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Waiting for the run to write %1…</source>
        <translation>실행이 %1에 쓰기를 기다리는 중…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>No event for %1 s: the run may have stopped without finishing (still following)</source>
        <translation>%1초 동안 이벤트 없음: 실행이 끝나지 않은 채 멈췄을 수 있습니다(계속 따라가는 중)</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Running: %1 s in</source>
        <translation>실행 중: %1초 경과</translation>
    </message>
</context>
<context>
    <name>gp::SuggestionsPanel</name>
    <message>
        <location filename="../widgets/panels/suggestions_panel.cpp" line="+27"/>
        <source>Step</source>
        <translation>스텝</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Change</source>
        <translation>변화</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Move</source>
        <translation>이동</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Apply</source>
        <translation>적용</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <location line="+21"/>
        <source>Apply the selected move (one undo step)</source>
        <translation>선택한 이동 적용 (한 번에 실행 취소 가능)</translation>
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
        <translation>스텝 %1</translation>
    </message>
    <message>
        <location line="+219"/>
        <source>&lt;b&gt;Tensor %1&lt;/b&gt;&lt;br&gt;%2 from %3 to %4&lt;br&gt;Start: %5&lt;br&gt;Duration: %6</source>
        <translation>&lt;b&gt;텐서 %1&lt;/b&gt;&lt;br&gt;%2, %3 → %4&lt;br&gt;시작: %5&lt;br&gt;지속 시간: %6</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;Type: %2&lt;br&gt;Device: %3&lt;br&gt;Start: %4&lt;br&gt;Duration: %5</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;유형: %2&lt;br&gt;장치: %3&lt;br&gt;시작: %4&lt;br&gt;지속 시간: %5</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 (%2)</source>
        <translation>%1(%2)</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>and %n more</source>
        <translation>
            <numerusform>외 %n개</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&lt;b&gt;Fused kernel of %1 ops&lt;/b&gt; (fusion group %2)&lt;br&gt;Device: %3&lt;br&gt;Start: %4&lt;br&gt;Duration: %5&lt;br&gt;%6</source>
        <translation>&lt;b&gt;연산 %1개의 퓨즈드 커널&lt;/b&gt;(퓨전 그룹 %2)&lt;br&gt;장치: %3&lt;br&gt;시작: %4&lt;br&gt;지속 시간: %5&lt;br&gt;%6</translation>
    </message>
</context>
</TS>

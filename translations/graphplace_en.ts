<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>QObject</name>
    <message numerus="yes">
        <location filename="../app/desktop/plan_commands.cpp" line="+17"/>
        <source>Move %n ops to %1</source>
        <translation>
            <numerusform>Move %n op to %1</numerusform>
            <numerusform>Move %n ops to %1</numerusform>
        </translation>
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
            <numerusform>%Ln op</numerusform>
            <numerusform>%Ln ops</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-52"/>
        <location line="+37"/>
        <source>%Ln devices</source>
        <translation>
            <numerusform>%Ln device</numerusform>
            <numerusform>%Ln devices</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::DeviceTreeModel</name>
    <message numerus="yes">
        <location filename="../widgets/panels/device_tree_model.cpp" line="+242"/>
        <source>%1 (%n GPU(s), %2 over)</source>
        <translation>
            <numerusform>%1 (%n GPU, %2 over)</numerusform>
            <numerusform>%1 (%n GPUs, %2 over)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%1 (%n GPU(s))</source>
        <translation>
            <numerusform>%1 (%n GPU)</numerusform>
            <numerusform>%1 (%n GPUs)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+12"/>
        <source>%1: %n GPU(s), %2 each at most; not measured</source>
        <translation>
            <numerusform>%1: %n GPU, %2 at most; not measured</numerusform>
            <numerusform>%1: %n GPUs, %2 each at most; not measured</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%1: %n GPU(s), peak memory %2 to %3 of %4</source>
        <translation>
            <numerusform>%1: %n GPU, peak memory %2 to %3 of %4</numerusform>
            <numerusform>%1: %n GPUs, peak memory %2 to %3 of %4</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n GPU(s) over capacity</source>
        <translation>
            <numerusform>%n GPU over capacity</numerusform>
            <numerusform>%n GPUs over capacity</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>%n GPU(s) not used</source>
        <translation>
            <numerusform>%n GPU not used</numerusform>
            <numerusform>%n GPUs not used</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::Document</name>
    <message numerus="yes">
        <location filename="../app/desktop/document.cpp" line="+284"/>
        <source>%n moved op(s) left their fusion groups: ops on different devices never fuse.</source>
        <translation>
            <numerusform>%n moved op left its fusion group: ops on different devices never fuse.</numerusform>
            <numerusform>%n moved ops left their fusion groups: ops on different devices never fuse.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+109"/>
        <source>Running %n baselines…</source>
        <translation>
            <numerusform>Running %n baseline…</numerusform>
            <numerusform>Running %n baselines…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../app/desktop/plan_edit_document.cpp" line="+52"/>
        <source>Set priority of %n ops to %1</source>
        <translation>
            <numerusform>Set priority of %n op to %1</numerusform>
            <numerusform>Set priority of %n ops to %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+17"/>
        <source>Cannot fuse %n ops: they are on different devices (%1); ops on different devices never fuse.</source>
        <translation>
            <numerusform>Cannot fuse %n op: it is on different devices (%1); ops on different devices never fuse.</numerusform>
            <numerusform>Cannot fuse %n ops: they are on different devices (%1); ops on different devices never fuse.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>These %n ops already form fusion group %1.</source>
        <translation>
            <numerusform>This op already forms fusion group %1 (%n op).</numerusform>
            <numerusform>These %n ops already form fusion group %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Cannot fuse %n ops: %1.</source>
        <translation>
            <numerusform>Cannot fuse %n op: %1.</numerusform>
            <numerusform>Cannot fuse %n ops: %1.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Fuse %n ops</source>
        <translation>
            <numerusform>Fuse %n op</numerusform>
            <numerusform>Fuse %n ops</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+14"/>
        <source>Unfuse %n ops</source>
        <translation>
            <numerusform>Unfuse %n op</numerusform>
            <numerusform>Unfuse %n ops</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>%n fusion group(s) dissolved as well: what was left of them could not run as one kernel.</source>
        <translation>
            <numerusform>%n fusion group dissolved as well: what was left of it could not run as one kernel.</numerusform>
            <numerusform>%n fusion groups dissolved as well: what was left of them could not run as one kernel.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../app/desktop/optimize_document.cpp" line="+115"/>
        <source>%n iteration(s)</source>
        <translation>
            <numerusform>%n iteration</numerusform>
            <numerusform>%n iterations</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>, %n polish move(s)</source>
        <translation>
            <numerusform>, %n polish move</numerusform>
            <numerusform>, %n polish moves</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::HistoryPanel</name>
    <message numerus="yes">
        <location filename="../widgets/panels/history_panel.cpp" line="+150"/>
        <source>#%1 vs #%2: %3 ms (%4 %), %Ln ops moved</source>
        <translation>
            <numerusform>#%1 vs #%2: %3 ms (%4 %), %Ln op moved</numerusform>
            <numerusform>#%1 vs #%2: %3 ms (%4 %), %Ln ops moved</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::ImportBanner</name>
    <message numerus="yes">
        <location filename="../app/desktop/import_notice.cpp" line="+33"/>
        <source>%n op(s) have shapes the importer could not learn; their cost is estimated.</source>
        <translation>
            <numerusform>%n op has shapes the importer could not learn; its cost is estimated.</numerusform>
            <numerusform>%n ops have shapes the importer could not learn; their cost is estimated.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::MainWindow</name>
    <message numerus="yes">
        <location filename="../app/desktop/main_window.cpp" line="+357"/>
        <source>Timeline (%n idle device(s) not shown)</source>
        <translation>
            <numerusform>Timeline (%n idle device not shown)</numerusform>
            <numerusform>Timeline (%n idle devices not shown)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+20"/>
        <source>%n op(s) placed differently in “%1” and “%2” are outlined in the graph</source>
        <translation>
            <numerusform>%n op placed differently in “%1” and “%2” is outlined in the graph</numerusform>
            <numerusform>%n ops placed differently in “%1” and “%2” are outlined in the graph</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+24"/>
        <source>%Ln op(s)</source>
        <translation>
            <numerusform>%Ln op</numerusform>
            <numerusform>%Ln ops</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../app/desktop/main_window_gpu.cpp" line="+148"/>
        <source>calibrated by %1 (%n op time(s) from it)</source>
        <translation>
            <numerusform>calibrated by %1 (%n op time from it)</numerusform>
            <numerusform>calibrated by %1 (%n op times from it)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location filename="../app/desktop/main_window_explain.cpp" line="+164"/>
        <source>%1: %2 ms (%3), %Ln op(s) outlined</source>
        <translation>
            <numerusform>%1: %2 ms (%3), %Ln op outlined</numerusform>
            <numerusform>%1: %2 ms (%3), %Ln ops outlined</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::OpInspector</name>
    <message numerus="yes">
        <location filename="../widgets/panels/op_inspector.cpp" line="+243"/>
        <source>group %1 (%n op(s))</source>
        <translation>
            <numerusform>group %1 (%n op)</numerusform>
            <numerusform>group %1 (%n ops)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%n ops selected</source>
        <translation>
            <numerusform>%n op selected</numerusform>
            <numerusform>%n ops selected</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+30"/>
        <source>%1 (%n estimated)</source>
        <translation>
            <numerusform>%1 (%n estimated)</numerusform>
            <numerusform>%1 (%n estimated)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+31"/>
        <source>#%1 (%n op(s))</source>
        <translation>
            <numerusform>#%1 (%n op)</numerusform>
            <numerusform>#%1 (%n ops)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>#%1 (%2 of %n op(s))</source>
        <translation>
            <numerusform>#%1 (%2 of %n op)</numerusform>
            <numerusform>#%1 (%2 of %n ops)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%n group(s): %1</source>
        <translation>
            <numerusform>%n group: %1</numerusform>
            <numerusform>%n groups: %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%n not fused</source>
        <translation>
            <numerusform>%n not fused</numerusform>
            <numerusform>%n not fused</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <location line="+29"/>
        <source>%n fusion group(s)</source>
        <translation>
            <numerusform>%n fusion group</numerusform>
            <numerusform>%n fusion groups</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-28"/>
        <source>%n ops</source>
        <translation>
            <numerusform>%n op</numerusform>
            <numerusform>%n ops</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+28"/>
        <source>(%n op(s))</source>
        <translation>
            <numerusform>(%n op)</numerusform>
            <numerusform>(%n ops)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::OptimizePopup</name>
    <message numerus="yes">
        <location filename="../app/desktop/optimize_popup.cpp" line="+159"/>
        <source>fusion (the plan&apos;s %n group(s))</source>
        <translation>
            <numerusform>fusion (the plan&apos;s %n group)</numerusform>
            <numerusform>fusion (the plan&apos;s %n groups)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>gp::TimelineView</name>
    <message numerus="yes">
        <location filename="../widgets/timeline/timeline_view.cpp" line="+297"/>
        <source>and %n more</source>
        <translation>
            <numerusform>and %n more</numerusform>
            <numerusform>and %n more</numerusform>
        </translation>
    </message>
</context>
</TS>

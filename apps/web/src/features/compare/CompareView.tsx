import { Alert, Box, Text, useMatches } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { micronsPerImagePixel, type Case, type Image, type ImageAlignment, type ImagePoint } from '@pathology/contract';
import { useQueries } from '@tanstack/react-query';
import OpenSeadragon from 'openseadragon';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { errorText } from '../../i18n/error-text.ts';
import { ZOOM_STEP } from '../viewer/osd-viewer.ts';
import { useExpandedView } from '../viewer/useExpandedView.ts';
import { ViewerFrame } from '../viewer/ViewerFrame.tsx';
import { SharedUnsavedGuard } from '../drawings/UnsavedGuard.tsx';
import { caseImagesPath } from '../viewer/viewer-paths.ts';
import { AlignmentPanel } from './AlignmentPanel.tsx';
import { alignmentQuery, useRemoveAlignment, useSaveAlignment } from './alignments.queries.ts';
import { compareKeyOf, type CompareKey } from './compare-keys.ts';
import { compareSearch, type CompareState } from './compare-url.ts';
import { ComparePane } from './ComparePane.tsx';
import { CompareTopBar } from './CompareTopBar.tsx';
import {
  paneMaps,
  paneRotation,
  relativeOffsets,
  turnPane,
  type LinkMode,
  type PaneLink,
  type PaneView,
} from './linking.ts';
import { completePairs } from './point-picking.ts';
import { alignmentTransform, residuals } from './transforms.ts';
import { linkScales, middleOffsets } from './unscaled.ts';
import { useAlignmentPicking, type Aligning } from './useAlignmentPicking.ts';
import { readView, ViewerLink, type ViewerLinkEvents } from './viewer-link.ts';

const NO_OFFSET: ImagePoint = [0, 0];

const sizeOf = (image: Image): [number, number] => [image.dimensions?.width ?? 0, image.dimensions?.height ?? 0];

/** The columns and rows of 2, 3 or 4 panes: side by side, three in a row, two by two. */
const GRID: Record<number, string> = { 2: 'repeat(2, 1fr)', 3: 'repeat(3, 1fr)', 4: 'repeat(2, 1fr)' };
/**
 * Below the `md` breakpoint (768 px; this theme's `sm` is 320 px), on a phone, the panes stack, each at least this
 * tall; more than two scroll.
 */
const NARROW_PANE_MIN_HEIGHT = 300;

function savedTransform(alignment: ImageAlignment | null | undefined) {
  return alignment ? alignmentTransform(alignment.points.map(({ image, other }) => [other, image])) : undefined;
}

interface CompareViewProps {
  initial: CompareState;
  images: Image[];
  cases: (Case | undefined)[];
}

/** 2 to 4 open slides side by side, linked in physical units (issue 31). */
export function CompareView({ initial, images, cases }: CompareViewProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { expanded, toggle } = useExpandedView();
  const narrow = useMatches({ base: true, md: false });
  const micronsPerPixel = images.map((image) => micronsPerImagePixel(image.resolution));
  const scales = linkScales(
    images.map((image, index) => ({ micronsPerPixel: micronsPerPixel[index], size: sizeOf(image) })),
  );
  // Slides with and without a resolution have no common frame for absolute linking: they open relatively linked,
  // middle on middle (a link that carries its own relative shifts keeps them).
  const absoluteOff = scales.sizedTo !== undefined;
  const [mode, setMode] = useState<LinkMode>(absoluteOff ? 'relative' : initial.mode);
  const [leader, setLeader] = useState(initial.leader);
  const [locked, setLocked] = useState(initial.locked);
  const [turns, setTurns] = useState(initial.rotations);
  const [offsets, setOffsets] = useState(() =>
    absoluteOff && initial.mode === 'absolute'
      ? middleOffsets(
          images.map((image, index) => ({
            micronsPerPixel: scales.micronsPerPixel[index]!,
            size: sizeOf(image),
            rotation: initial.rotations[index] ?? 0,
            offset: NO_OFFSET,
          })),
          initial.leader,
        )
      : initial.offsets,
  );
  const [view, setView] = useState(initial.view);
  const [aligning, setAligning] = useState<Aligning | null>(null);
  const [ready, setReady] = useState<boolean[]>(() => images.map(() => false));
  // Each pane's view once the leader rests, on the page for whoever reads it (the journeys check the link by it).
  const [rested, setRested] = useState<(PaneView | undefined)[]>([]);
  const save = useSaveAlignment();
  const remove = useRemoveAlignment();

  const ids = images.map((image) => image.id);
  const [first] = images as [Image, ...Image[]];
  const alignments = useQueries({ queries: ids.slice(1).map((id) => alignmentQuery(first.id, id)) });
  const saved = [undefined, ...alignments.map((query) => query.data)];

  const panes: PaneLink[] = images.map((image, index) => ({
    micronsPerPixel: scales.micronsPerPixel[index]!,
    size: sizeOf(image),
    rotation: turns[index] ?? 0,
    offset: mode === 'relative' ? (offsets[index] ?? NO_OFFSET) : NO_OFFSET,
    alignment: savedTransform(saved[index]),
  }));
  // Keyed by content: `panes` is rebuilt on every render, the maps only when a pane is placed differently.
  const panesKey = JSON.stringify(panes);
  const maps = useMemo(() => paneMaps(panes), [panesKey]);

  // The link outlives renders; what it reports goes to this render's handlers.
  const events = useRef<ViewerLinkEvents | null>(null);
  const [link] = useState(
    () =>
      new ViewerLink(
        {
          onLeader: (index) => events.current?.onLeader(index),
          onSettled: (index, settled) => events.current?.onSettled(index, settled),
          onTurned: (index, degrees) => events.current?.onTurned(index, degrees),
        },
        initial.leader,
        initial.view,
      ),
  );

  const viewsNow = () =>
    images.map((_, index) => {
      const viewer = link.viewer(index);
      return viewer && readView(viewer);
    });

  const turn = (index: number, degrees: number) => {
    const viewer = link.viewer(index);
    const next = turnPane(panes, index, degrees, viewer && readView(viewer), mode);
    setTurns(next.map((pane) => pane.rotation));
    setOffsets(next.map((pane) => pane.offset));
  };
  events.current = {
    onLeader: (index) => {
      setLeader(index);
      const viewer = link.viewer(index);
      const current = viewer && readView(viewer);
      if (current) setView({ centre: current.centre, zoom: current.zoom });
    },
    onSettled: (_, settled) => {
      setView({ centre: settled.centre, zoom: settled.zoom });
      setRested(viewsNow());
    },
    onTurned: turn,
  };
  useEffect(() => () => link.dispose(), [link]);
  useEffect(() => link.configure(maps, locked), [link, maps, locked]);
  useEffect(() => link.suspend(aligning !== null), [link, aligning]);

  const toggleLock = (index: number) => {
    if (!locked[index] && mode === 'relative') {
      // Linking again keeps the shift the user has set meanwhile, measured against a pane still linked.
      const reference = locked.findIndex((isLocked, at) => isLocked && at !== index);
      if (reference >= 0) {
        const captured = relativeOffsets(panes, viewsNow(), reference);
        setOffsets(offsets.map((offset, at) => (at === index ? (captured[at] ?? offset) : offset)));
      }
    }
    setLocked(locked.map((isLocked, at) => (at === index ? !isLocked : isLocked)));
  };

  const chooseMode = (next: LinkMode) => {
    if (next === mode || (next === 'absolute' && absoluteOff)) return;
    setOffsets(
      next === 'relative' ? relativeOffsets(panes, viewsNow(), link.leaderIndex) : images.map(() => NO_OFFSET),
    );
    setMode(next);
  };

  // The address bar carries the whole state, so the link opens the same comparison (replacing, not stacking, history).
  const search = compareSearch({ imageIds: ids, mode, leader, view, rotations: turns, offsets, locked });
  useEffect(() => {
    if (search !== window.location.search) void navigate({ search }, { replace: true });
  }, [navigate, search]);

  const onKey = (key: CompareKey) => {
    const index = link.leaderIndex;
    const viewer = link.viewer(index);
    if (key.kind === 'lock') return toggleLock(index);
    if (key.kind === 'lead') {
      const count = images.length;
      for (let step = 1; step < count; step += 1) {
        const candidate = (index + key.step * step + count) % count;
        if (locked[candidate]) return link.setLeader(candidate);
      }
      return undefined;
    }
    if (!viewer) return undefined;
    const { viewport } = viewer;
    if (key.kind === 'pan') viewport.panBy(viewport.deltaPointsFromPixels(new OpenSeadragon.Point(key.dx, key.dy)));
    else viewport.zoomBy(key.direction === 'in' ? ZOOM_STEP : 1 / ZOOM_STEP);
    viewport.applyConstraints();
    return undefined;
  };
  const keyHandler = useRef(onKey);
  keyHandler.current = onKey;
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      const key = compareKeyOf(event);
      if (!key) return;
      event.preventDefault();
      keyHandler.current(key);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);

  const picking = useAlignmentPicking(link, images.length, aligning, setAligning, ready.join());

  const onReady = useMemo(
    () =>
      images.map((_, index) => (viewer: OpenSeadragon.Viewer | null) => {
        link.attach(index, viewer ?? undefined);
        setReady((current) => current.map((value, at) => (at === index ? viewer !== null : value)));
      }),
    [link],
  );

  const startAligning = (other = 1) => {
    const points = saved[other]?.points ?? [];
    setAligning({ other, pairs: points.map(({ image, other: onOther }) => ({ reference: image, other: onOther })) });
  };

  const pairs = aligning ? completePairs(aligning.pairs) : [];
  const transform = pairs.length >= 2 ? alignmentTransform(pairs) : undefined;
  const firstMicrons = micronsPerPixel[0];
  const unit = (value: number) =>
    firstMicrons === undefined ? `${value.toFixed(1)} px` : `${(value * firstMicrons).toFixed(2)} µm`;

  const saveAlignment = () => {
    if (!aligning) return;
    const other = aligning.other;
    save.mutate(
      {
        imageId: first.id,
        otherImageId: ids[other]!,
        points: pairs.map(([onOther, image]) => ({ image, other: onOther })),
      },
      {
        onSuccess: () => {
          // The alignment now places the slide: its own turn and shift start again from nothing.
          setTurns(turns.map((degrees, at) => (at === other ? 0 : degrees)));
          setOffsets(offsets.map((offset, at) => (at === other ? NO_OFFSET : offset)));
          setAligning(null);
          notifications.show({ color: 'teal', message: t('compare.align.saved') });
        },
        onError: (error) =>
          notifications.show({ color: 'red', title: t('compare.align.failed'), message: errorText(error, t) }),
      },
    );
  };

  const removeAlignment = () => {
    if (!aligning) return;
    remove.mutate(
      { imageId: first.id, otherImageId: ids[aligning.other]! },
      {
        onSuccess: () => {
          setAligning(null);
          notifications.show({ color: 'teal', message: t('compare.align.removed') });
        },
        onError: (error) =>
          notifications.show({ color: 'red', title: t('compare.align.removeFailed'), message: errorText(error, t) }),
      },
    );
  };

  // Saving or removing an alignment needs edit rights on both slides' cases (the server answers 403 otherwise).
  const mayAlign = cases.every((item) => item?.userCapabilities.canEdit === true);
  const unscaled = images.filter((_, index) => micronsPerPixel[index] === undefined).map((image) => image.displayName);

  return (
    <ViewerFrame expanded={expanded}>
      <SharedUnsavedGuard>
        <CompareTopBar
          backHref={caseImagesPath(first.caseId)}
          count={images.length}
          mode={mode}
          onMode={chooseMode}
          aligning={aligning !== null}
          onAlign={mayAlign ? () => (aligning ? setAligning(null) : startAligning()) : undefined}
          absoluteOff={absoluteOff}
        />
        {unscaled.length > 0 && (
          <Alert color="yellow" py={4} radius={0} data-testid="compare-pixels-notice">
            <Text size="xs">
              {absoluteOff
                ? t('compare.pixelsRelative', {
                    names: unscaled.join(', '),
                    reference: images[scales.sizedTo ?? 0]?.displayName ?? '',
                  })
                : t('compare.pixels', { names: unscaled.join(', ') })}
            </Text>
          </Alert>
        )}
        <Box
          pos="relative"
          style={{
            flex: 1,
            minHeight: 0,
            display: 'grid',
            gridTemplateColumns: narrow ? '1fr' : GRID[images.length],
            gridAutoRows: narrow ? `minmax(${NARROW_PANE_MIN_HEIGHT}px, 1fr)` : '1fr',
            overflowY: narrow ? 'auto' : undefined,
            gap: 4,
            padding: 4,
          }}
          data-testid="compare-grid"
          data-mode={mode}
          data-narrow={narrow}
        >
          {images.map((image, index) => (
            <ComparePane
              key={image.id}
              index={index}
              image={image}
              caseItem={cases[index]}
              leading={leader === index}
              locked={locked[index] ?? true}
              rotation={maps[index] ? paneRotation(maps[index]) : 0}
              alignedPoints={saved[index]?.points.length}
              expanded={expanded}
              onToggleExpanded={toggle}
              onReady={onReady[index]!}
              onLock={() => toggleLock(index)}
              onTurn={(degrees) => turn(index, degrees)}
              onTake={() => link.setLeader(index)}
              rested={rested[index]}
              onMissedClick={aligning ? picking.missed : undefined}
            />
          ))}
          {aligning && (
            <AlignmentPanel
              referenceName={first.displayName}
              otherName={images[aligning.other]?.displayName ?? ''}
              choices={images.slice(1).map((image, at) => ({ index: at + 1, name: image.displayName }))}
              otherIndex={aligning.other}
              onOther={(other) => startAligning(other)}
              pairs={aligning.pairs}
              residuals={transform ? residuals(pairs).map(unit) : []}
              degenerate={pairs.length >= 2 && !transform}
              canSave={transform !== undefined}
              saving={save.isPending}
              onSave={saveAlignment}
              onClear={() => setAligning({ ...aligning, pairs: [] })}
              onCancel={() => setAligning(null)}
              onRemove={saved[aligning.other] ? removeAlignment : undefined}
              status={picking.status}
              paneNames={images.map((image) => image.displayName)}
            />
          )}
        </Box>
      </SharedUnsavedGuard>
    </ViewerFrame>
  );
}

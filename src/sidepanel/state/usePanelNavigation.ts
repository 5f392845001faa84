/** Which view the panel shows (chat, help, stats and files, settings), the Stats/Files tab, the conversations drawer. */
import { useRef, useState } from 'preact/hooks';
import type { RefObject } from 'preact';
import type { PanelView } from '../components/Header.tsx';
import type { DataTab } from '../components/DataView.tsx';

export interface PanelNavigation {
  view: PanelView;
  dataTab: DataTab;
  setDataTab(tab: DataTab): void;
  drawer: boolean;
  setDrawer(open: boolean): void;
  /** The composer's text box, focused whenever the chat comes back. */
  input: RefObject<HTMLTextAreaElement | null>;
  focusInput(): void;
  /** Back to the chat with the drawer closed and the composer focused. */
  showChat(): void;
  /** Opens a view, or goes back to the chat when it is the one shown. */
  toggle(view: PanelView): void;
  openSettings(): void;
  /** Opens Stats and Files on one of its tabs. */
  openData(tab: DataTab): void;
  /** Shows the chat without moving the focus (help's "Try it" fills the composer). */
  setChat(): void;
}

export function usePanelNavigation(): PanelNavigation {
  const [view, setView] = useState<PanelView>('chat');
  const [dataTab, setDataTab] = useState<DataTab>('stats');
  const [drawer, setDrawer] = useState(false);
  const input = useRef<HTMLTextAreaElement>(null);
  const focusInput = () => setTimeout(() => input.current?.focus(), 0);
  return {
    view,
    dataTab,
    setDataTab,
    drawer,
    setDrawer,
    input,
    focusInput,
    showChat: () => {
      setDrawer(false);
      setView('chat');
      focusInput();
    },
    toggle: (v) => {
      setDrawer(false);
      if (view === v) {
        setView('chat');
        focusInput();
      } else setView(v);
    },
    openSettings: () => {
      setDrawer(false);
      setView('settings');
    },
    openData: (tab) => {
      setDataTab(tab);
      setView('data');
    },
    setChat: () => setView('chat'),
  };
}

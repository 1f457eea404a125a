import { lazyDialog } from '../../components/lazy-dialog';
import type { CommunitySelectionModalProps } from './community/CommunitySelectionModal';
import type { SubmitReviewModalProps } from './community/SubmitReviewModal';
import type { ConflictDialogProps } from './ConflictDialog';
import type { AuthorImportModalProps } from './creators/AuthorImportModal';
import type { CreatorModalProps } from './creators/CreatorModal';
import type { DeleteConfirmModalProps } from './DeleteConfirmModal';
import type { ImportMetadataModalProps } from './import/ImportMetadataModal';
import type { CustomLicenseModalProps } from './metadata/CustomLicenseModal';
import type { FundingModalProps } from './metadata/FundingModal';
import type { LicenseSearchModalProps } from './metadata/LicenseSearchModal';
import type { PublishModalProps } from './PublishModal';

/*
 * The deposit form's dialogs, fetched when the first of them opens (see lazyDialog): none of
 * them is needed to show or fill in the form. Same names and props as the dialogs themselves.
 */

const whenOpened = (props: { opened: boolean }) => props.opened;

const loadDialogs = () => import('./dialog-modules');

export const CreatorModal = lazyDialog<CreatorModalProps>(
  () => loadDialogs().then((module) => module.CreatorModal),
  whenOpened,
);

/**
 * In a chunk of its own, not with the other dialogs: it brings the YAML parser (for
 * CITATION.cff), which no other dialog needs.
 */
export const AuthorImportModal = lazyDialog<AuthorImportModalProps>(
  () => import('./creators/AuthorImportModal').then((module) => module.AuthorImportModal),
  whenOpened,
);

/**
 * In a chunk of its own too: the review and its strings (a namespace of their own, English and
 * German) are needed only by whoever imports, and not by the form's first load.
 */
export const ImportMetadataModal = lazyDialog<ImportMetadataModalProps>(
  () => import('./import/ImportMetadataModal').then((module) => module.ImportMetadataModal),
  whenOpened,
);

export const LicenseSearchModal = lazyDialog<LicenseSearchModalProps>(
  () => loadDialogs().then((module) => module.LicenseSearchModal),
  whenOpened,
);

export const CustomLicenseModal = lazyDialog<CustomLicenseModalProps>(
  () => loadDialogs().then((module) => module.CustomLicenseModal),
  whenOpened,
);

export const FundingModal = lazyDialog<FundingModalProps>(
  () => loadDialogs().then((module) => module.FundingModal),
  whenOpened,
);

export const PublishModal = lazyDialog<PublishModalProps>(
  () => loadDialogs().then((module) => module.PublishModal),
  whenOpened,
);

export const SubmitReviewModal = lazyDialog<SubmitReviewModalProps>(
  () => loadDialogs().then((module) => module.SubmitReviewModal),
  whenOpened,
);

export const CommunitySelectionModal = lazyDialog<CommunitySelectionModalProps>(
  () => loadDialogs().then((module) => module.CommunitySelectionModal),
  whenOpened,
);

export const DeleteConfirmModal = lazyDialog<DeleteConfirmModalProps>(
  () => loadDialogs().then((module) => module.DeleteConfirmModal),
  whenOpened,
);

export const ConflictDialog = lazyDialog<ConflictDialogProps>(
  () => loadDialogs().then((module) => module.ConflictDialog),
  (props) => props.conflict !== null,
);

/** Every dialog of the form, to fetch once the form is in use (see DepositForm). */
export const depositDialogs = [
  CreatorModal,
  LicenseSearchModal,
  CustomLicenseModal,
  FundingModal,
  PublishModal,
  SubmitReviewModal,
  CommunitySelectionModal,
  DeleteConfirmModal,
  ConflictDialog,
];
